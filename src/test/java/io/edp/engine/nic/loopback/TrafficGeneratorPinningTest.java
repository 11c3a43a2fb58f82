package io.edp.engine.nic.loopback;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.edp.engine.Await;
import io.edp.engine.Engine;
import io.edp.engine.Mode;
import io.edp.engine.TestTopology;
import io.edp.engine.numa.CpuAffinity;
import io.edp.engine.numa.CpuSet;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** A generator started with CPUs runs only on them, as the kernel reports its thread's affinity. */
class TrafficGeneratorPinningTest {

    private static final Path TASKS = Path.of("/proc/self/task");

    @Test
    void generatorStartedWithACpuRunsOnlyOnIt() {
        assumeTrue(CpuAffinity.isSupported() && Files.isDirectory(TASKS), "Linux only");
        CpuSet last = CpuSet.of(CpuAffinity.currentThreadAffinity().cpus().last());
        try (Engine engine = Engine.start(TestTopology.config(Mode.EDP_STANDARD).build())) {
            LoopbackNic nic = TestTopology.nic(engine, 0);

            TrafficGenerator generator = nic.startTraffic(TestTopology.routed(64, 0)
                    .withDuration(Duration.ofSeconds(30)), last);

            String name = ("edp-traffic-" + nic.name()).substring(0, 15); // the kernel keeps 15 characters
            Await.until("the generator's thread pinned to CPU " + last,
                    () -> allowedCpus(name).filter(last.toString()::equals).isPresent(), Duration.ofSeconds(10));
            long sent = generator.sent();
            Await.until("frames sent by the pinned generator", () -> generator.sent() > sent, Duration.ofSeconds(10));
            generator.stop();
            // join() returns when the Java thread ends; the kernel's task leaves /proc a moment later
            Await.until("the generator's thread gone", () -> allowedCpus(name).isEmpty(), Duration.ofSeconds(10));
        }
    }

    /** {@code Cpus_allowed_list} of this process's task named {@code name}, if it runs. */
    private static Optional<String> allowedCpus(String name) {
        try (Stream<Path> tasks = Files.list(TASKS)) {
            for (Path task : tasks.toList()) {
                if (read(task.resolve("comm")).map(String::strip).filter(name::equals).isPresent()) {
                    return read(task.resolve("status")).flatMap(status -> status.lines()
                            .filter(line -> line.startsWith("Cpus_allowed_list:"))
                            .map(line -> line.substring(line.indexOf(':') + 1).strip()).findFirst());
                }
            }
            return Optional.empty();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Optional<String> read(Path file) {
        try {
            return Optional.of(Files.readString(file));
        } catch (IOException e) {
            return Optional.empty(); // the task ended while listed
        }
    }
}
