package io.edp.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;

/**
 * What a process's threads have had of the CPUs, from {@code /proc/<pid>/task/<tid>/schedstat} (nanoseconds):
 * per thread alive when read, its time on a CPU and its time runnable but waiting for one.
 */
record ProcessTimes(Map<String, ThreadTimes> threads) {

    /** One thread's time on a CPU and time waiting for one. */
    record ThreadTimes(long cpuNanos, long waitNanos) {
    }

    static ProcessTimes of(long pid) {
        Map<String, ThreadTimes> threads = new HashMap<>();
        try (Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path task : tasks.toList()) {
                try {
                    String[] fields = Files.readString(task.resolve("schedstat")).trim().split(" ");
                    threads.put(task.getFileName().toString(),
                            new ThreadTimes(Long.parseLong(fields[0]), Long.parseLong(fields[1])));
                } catch (IOException e) {
                    // the thread exited since the listing
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("process " + pid + " is gone", e);
        }
        return new ProcessTimes(threads);
    }

    /** What happened since {@code earlier}: CPU time of all threads, and how long the busiest one waited for a CPU. */
    Window since(ProcessTimes earlier) {
        long cpu = 0;
        long busiest = -1;
        long wait = 0;
        for (var thread : threads.entrySet()) {
            ThreadTimes before = earlier.threads.getOrDefault(thread.getKey(), new ThreadTimes(0, 0));
            long threadCpu = thread.getValue().cpuNanos() - before.cpuNanos();
            cpu += threadCpu;
            if (threadCpu > busiest) {
                busiest = threadCpu;
                wait = thread.getValue().waitNanos() - before.waitNanos();
            }
        }
        return new Window(cpu, wait);
    }

    /**
     * @param cpuNanos  CPU time of the process's threads
     * @param waitNanos time its busiest thread (the one forwarding) was runnable but not running: other work on the
     *                  machine holding the forwarder back
     */
    record Window(long cpuNanos, long waitNanos) {
    }
}
