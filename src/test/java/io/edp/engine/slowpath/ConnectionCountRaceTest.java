package io.edp.engine.slowpath;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/**
 * One direction of a logged connection can be counted by two workers at once (steering hashes fragments and ICMP
 * without the ports its other packets are hashed with): {@link ConnectionTable#count} must lose none of their counts.
 */
class ConnectionCountRaceTest {

    @Test
    void twoWorkersCountingOneDirectionLoseNothing() throws InterruptedException {
        ConnectionTable table = new ConnectionTable(256);
        int perThread = 2_000_000;
        CountDownLatch start = new CountDownLatch(1);
        Runnable worker = () -> {
            try {
                start.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            for (int i = 0; i < perThread; i++) {
                table.count(6, 100);
            }
        };
        Thread a = Thread.ofPlatform().start(worker);
        Thread b = Thread.ofPlatform().start(worker);
        start.countDown();
        a.join();
        b.join();

        assertThat(table.counted(6)).containsExactly(2L * perThread, 200L * perThread);
    }
}
