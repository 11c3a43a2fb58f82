package io.edp.bench;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * wrk (the Debian package {@value #TOOL}) as bench api's load generator, run as its own process: its event loop costs
 * the manager's two CPUs less than a generator of threads in the manager's JVM does, and its figures are the ones
 * the goals were set with. Two threads (fewer if fewer connections), keep-alive, HTTP Basic; a Lua
 * {@code done} hook prints the figures on one line, so nothing is read off its human report.
 */
final class Wrk {

    static final String TOOL = "wrk";
    private static final String MARK = "edp-bench";
    private static final String REPORT = """
            done = function(summary, latency, requests)
              local e = summary.errors
              io.write(string.format("%s %%d %%d %%d %%d %%d %%d\\n", summary.requests, summary.duration, e.status,
                e.connect + e.read + e.write + e.timeout, latency:percentile(50), latency:percentile(99)))
            end
            """.formatted(MARK);

    private Wrk() {
    }

    /** As {@link HttpLoad#run}: a warm-up run of wrk (when {@code warmUp} is not zero), then a measured one. */
    static LoadResult run(URI base, String target, String authorization, int connections, Duration warmUp,
                          Duration window) throws IOException, InterruptedException {
        Path script = Files.createTempFile("edp-bench-wrk", ".lua");
        try {
            Files.writeString(script, REPORT);
            if (!warmUp.isZero()) {
                once(base, target, authorization, connections, warmUp, script);
            }
            return once(base, target, authorization, connections, window, script);
        } finally {
            Files.deleteIfExists(script);
        }
    }

    private static LoadResult once(URI base, String target, String authorization, int connections,
                                   Duration window, Path script) throws IOException, InterruptedException {
        var command = List.of(TOOL, "-t", Integer.toString(Math.min(2, connections)), "-c",
                Integer.toString(connections), "-d", window.toSeconds() + "s", "--timeout", "30s", "-s",
                script.toString(), "-H", "Authorization: " + authorization, "-H", "Accept: application/json",
                base.resolve(target).toString());
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(window.toSeconds() + 60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IOException("wrk did not end");
        }
        String line = output.lines().filter(l -> l.startsWith(MARK + " ")).findFirst()
                .orElseThrow(() -> new IOException("wrk exited " + process.exitValue() + ": " + output.strip()));
        String[] f = line.split(" ");
        long requests = Long.parseLong(f[1]);
        double seconds = Long.parseLong(f[2]) / 1e6;
        // wrk counts answers of 400 and above as status errors, and socket errors apart
        long errors = Long.parseLong(f[3]) + Long.parseLong(f[4]);
        return new LoadResult(requests, errors, seconds, Long.parseLong(f[5]) / 1e3, Long.parseLong(f[6]) / 1e3);
    }
}
