package io.edp.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The machine's load from {@code /proc/loadavg}: the 1-minute load average, and the tasks runnable at this
 * instant (on a CPU or waiting for one), which, sampled through a window, says whether other work competed with
 * the benchmark's threads in it.
 */
record MachineLoad(double oneMinute, int runnable) {

    static final Path LOADAVG = Path.of("/proc/loadavg");

    /** Reads {@code /proc/loadavg} ("0.52 0.58 0.59 3/467 12345"). */
    static MachineLoad read() {
        try {
            String[] fields = Files.readString(LOADAVG).trim().split("\\s+");
            return new MachineLoad(Double.parseDouble(fields[0]),
                    Integer.parseInt(fields[3].substring(0, fields[3].indexOf('/'))));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + LOADAVG, e);
        }
    }
}
