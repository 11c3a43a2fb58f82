package io.edp.bench;

import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;

/** {@code edp bench <name> [options]}: benchmarks that run without Spring. Returns the process exit status. */
public final class BenchCommand {

    private BenchCommand() {
    }

    public static int run(String[] args) {
        PrintStream out = System.out;
        if (args.length > 0 && args[0].equals("afpacket")) {
            return AfPacketBench.run(Arrays.copyOfRange(args, 1, args.length));
        }
        if (args.length == 0 || !args[0].equals("engine")) {
            out.println("usage: bench engine [--quick] | bench afpacket [--seconds N] [--mode MODE] [--drivers-only]");
            return 2;
        }
        List<String> options = List.of(args).subList(1, args.length);
        for (String option : options) {
            if (!option.equals("--quick")) {
                out.println("bench engine: unknown option " + option + " (usage: bench engine [--quick])");
                return 2;
            }
        }
        return new EngineBenchmark(options.contains("--quick"), out).run();
    }
}
