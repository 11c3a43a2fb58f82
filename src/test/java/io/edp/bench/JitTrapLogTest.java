package io.edp.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The trap log read back from a real JVM that logged to it, as a forked case's JVM does. */
class JitTrapLogTest {

    @TempDir
    Path directory;

    @Test
    void countsTheTrapsOfCompiledCodeThatMeetsACaseItWasCompiledWithout() throws Exception {
        JitTrapLog quiet = new JitTrapLog(directory.resolve("quiet.log"));
        JitTrapLog trapped = new JitTrapLog(directory.resolve("trapped.log"));
        assertThat(quiet.traps()).as("no log yet").isZero();

        run(quiet, "0");
        run(trapped, "1000");

        assertThat(trapped.traps()).as("the same run, plus a branch that compiled code had never seen taken")
                .isGreaterThan(quiet.traps());
    }

    /** Compiles {@link Provoke#step} before any negative argument, then calls it with {@code negatives} of them. */
    private static void run(JitTrapLog log, String negatives) throws Exception {
        Process java = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                log.jvmFlag(), "-Xbatch", "-XX:-TieredCompilation", "-cp", System.getProperty("java.class.path"),
                Provoke.class.getName(), negatives).inheritIO().start();
        assertThat(java.waitFor(1, TimeUnit.MINUTES)).isTrue();
        assertThat(java.exitValue()).isZero();
    }

    /** A child JVM's program: C2 compiles {@code step} (synchronously: -Xbatch) from non-negative arguments only. */
    static final class Provoke {

        /** Where the sum goes, so that C2 keeps the calls that make it. */
        static volatile long kept;

        public static void main(String[] args) {
            long sum = 0;
            for (int i = 0; i < 100_000; i++) {
                sum += step(i);
            }
            for (int i = 0; i < Integer.parseInt(args[0]); i++) {
                sum += step(-i - 1);
            }
            kept = sum;
        }

        private static long step(int x) {
            return x < 0 ? (long) x * x * 7 : x + 1;
        }
    }
}
