package io.edp.engine.nic.loopback;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class SpscIntRingTest {

    /** Reads up to {@code max} entries in place into {@code into} and {@code meta}, then consumes them. */
    private static int poll(SpscIntRing ring, int[] into, long[] meta, int max) {
        int n = ring.readable(max);
        for (int i = 0; i < n; i++) {
            into[i] = ring.index(i);
            meta[i] = ring.meta(i);
        }
        ring.consume(n);
        return n;
    }

    @Test
    void stagedEntriesAreSeenOnlyOncePublished() {
        SpscIntRing ring = new SpscIntRing(8);
        int[] into = new int[8];
        long[] meta = new long[8];
        ring.stage(5, 50);
        ring.stage(6, 60);

        assertThat(poll(ring, into, meta, 8)).isZero();
        assertThat(ring.publish()).isTrue();
        assertThat(ring.publish()).as("nothing staged since").isFalse();
        ring.stage(7, 70);

        assertThat(poll(ring, into, meta, 8)).isEqualTo(2);
        assertThat(into).startsWith(5, 6);
        assertThat(meta).startsWith(50, 60);
        assertThat(ring.publish()).isTrue();
        assertThat(poll(ring, into, meta, 8)).isEqualTo(1);
        assertThat(into[0]).isEqualTo(7);
        assertThat(meta[0]).isEqualTo(70);
    }

    @Test
    void stagedEntriesCountTowardsTheCapacity() {
        SpscIntRing ring = new SpscIntRing(4);
        for (int i = 0; i < 4; i++) {
            assertThat(ring.stage(i, i)).isTrue();
        }
        assertThat(ring.stage(4, 4)).isFalse();

        ring.publish();
        assertThat(ring.poll()).isZero();
        assertThat(ring.stage(4, 4)).isTrue(); // the consumer made room
        assertThat(ring.stage(5, 5)).isFalse();
        ring.publish();
        assertThat(ring.readable(2)).isEqualTo(2);
        assertThat(ring.stage(5, 5)).isFalse(); // read in place, not yet consumed
        ring.consume(1);
        assertThat(ring.stage(5, 5)).isTrue();
    }

    @Test
    void aConsumerOnAnotherThreadReceivesEveryPublishedEntryInOrder() {
        SpscIntRing ring = new SpscIntRing(64);
        int total = 1_000_000;
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        CompletableFuture<Void> producer = CompletableFuture.runAsync(() -> {
            int next = 0;
            while (next < total && System.nanoTime() < deadline) {
                int staged = 0;
                while (staged < 32 && next < total && ring.stage(next, (long) next << 32 | next)) {
                    next++;
                    staged++;
                }
                ring.publish();
                Thread.onSpinWait();
            }
        });
        int[] into = new int[32];
        long[] meta = new long[32];
        int received = 0;
        int outOfOrder = 0;
        while (received < total && System.nanoTime() < deadline) {
            int n = poll(ring, into, meta, 32);
            for (int i = 0; i < n; i++, received++) {
                if (into[i] != received || meta[i] != ((long) received << 32 | received)) {
                    outOfOrder++;
                }
            }
        }
        producer.join();
        assertThat(received).isEqualTo(total);
        assertThat(outOfOrder).isZero();
    }
}
