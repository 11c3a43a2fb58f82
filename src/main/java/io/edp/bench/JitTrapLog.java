package io.edp.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * Where a forked case's JVM logs the JIT's uncommon traps ({@code -Xlog:deoptimization=debug}, one line per trap),
 * so that a round can say how many fired in its window. A trap is compiled code meeting a case it was compiled
 * without; one on the hot path can fire on every packet and send each back through the interpreter, which a round
 * shows only as a worker many times slower at the same hit rate. The log costs nothing while no trap fires.
 */
record JitTrapLog(Path file) {

    /** What HotSpot writes for each uncommon trap, and for nothing else at this level. */
    private static final String TRAP = " trap_bci=";

    /** The JVM flag that sends the traps to {@link #file} (one file, however long: no rotation). */
    String jvmFlag() {
        return "-Xlog:deoptimization=debug:file=" + file + "::filecount=0";
    }

    /** The traps logged so far: 0 before the JVM has created the file. */
    long traps() {
        if (!Files.exists(file)) {
            return 0;
        }
        try (Stream<String> lines = Files.lines(file)) {
            return lines.filter(line -> line.contains(TRAP)).count();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the JIT's trap log " + file, e);
        }
    }
}
