package io.edp.engine.packetlog;

import static org.assertj.core.api.Assertions.assertThat;

import io.edp.engine.packet.FlowKey;
import io.edp.engine.time.SystemClock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The drainer thread sleeps while the log is disabled, and delivers on its own once it is enabled. */
class PacketLogDrainerTest {

    private static final long DEADLINE_NANOS = 10_000_000_000L;

    @TempDir
    Path dir;

    @Test
    void aDisabledLogsDrainerSleepsUntilTheLogIsEnabled() throws IOException {
        String[] names = {"uplink0", "vm-a-eth0"};
        boolean[] uplinks = {true, false};
        try (PacketLog log = new PacketLog(1, SystemClock.INSTANCE, false)) {
            log.configure(PacketLogConfig.DISABLED, names, uplinks);
            Thread drainer = Thread.getAllStackTraces().keySet().stream()
                    .filter(t -> t.threadId() == log.threadId()).findFirst().orElseThrow();
            awaitState(drainer, Thread.State.WAITING);

            Path file = dir.resolve("dfwpktlogs.log");
            log.configure(PacketLogConfig.to(List.of(), file.toString()), names, uplinks);
            log.writer(0).opened(PacketLogWriter.PASS, 1001, 0x0A00_0001L << 32, 0, 0x0A00_0002L << 32, 0,
                    FlowKey.l4Word(40000, 80, FlowKey.PROTO_TCP, 4, 1), 0, FlowKey.TCP_SYN, 74,
                    (int) (SystemClock.INSTANCE.nanoTime() / 1_000_000));
            long deadline = System.nanoTime() + DEADLINE_NANOS;
            while (!(Files.exists(file) && Files.readString(file).contains("PASS 1001"))
                    && System.nanoTime() < deadline) {
                LockSupport.parkNanos(10_000_000);
            }
            assertThat(Files.readString(file)).as("delivered without a flush").contains("PASS 1001 OUT 74 TCP");
            assertThat(drainer.getState()).as("an enabled log's drainer wakes on its interval")
                    .isNotEqualTo(Thread.State.WAITING);

            log.configure(PacketLogConfig.DISABLED, names, uplinks);
            awaitState(drainer, Thread.State.WAITING);
        }
    }

    private static void awaitState(Thread thread, Thread.State state) {
        long deadline = System.nanoTime() + DEADLINE_NANOS;
        while (thread.getState() != state && System.nanoTime() < deadline) {
            LockSupport.parkNanos(5_000_000);
        }
        assertThat(thread.getState()).isEqualTo(state);
    }
}
