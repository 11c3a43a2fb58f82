package io.edp.engine.nic;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The doorbell's handshake: no ring is lost between a worker's last poll and its sleep; a timeout is no wake-up. */
class DoorbellTest {

    private static final long LONG_NANOS = 30_000_000_000L;

    @Test
    void everyRingReachesTheOwnerWhereverItFallsInArmPollSleep() throws Exception {
        Doorbell doorbell = new Doorbell();
        AtomicLong published = new AtomicLong();
        AtomicLong seen = new AtomicLong();
        int rounds = 20_000;
        // the owner: arm, poll (the published counter), sleep; a lost ring leaves it asleep for 30 s
        Thread owner = Thread.ofPlatform().start(() -> {
            while (seen.get() < rounds) {
                doorbell.arm();
                long now = published.get();
                if (now != seen.get()) {
                    doorbell.disarm();
                    seen.set(now);
                } else {
                    doorbell.sleep(LONG_NANOS);
                }
            }
        });
        long started = System.nanoTime();
        for (int i = 1; i <= rounds; i++) {
            published.set(i);
            doorbell.ring();
            while (seen.get() != i) {
                Thread.onSpinWait();
                assertThat(System.nanoTime() - started).as("a ring was lost at round %d", i)
                        .isLessThan(LONG_NANOS / 2);
            }
        }
        owner.join();
        assertThat(seen.get()).isEqualTo(rounds);
    }

    @Test
    void aSleepThatTimesOutIsNoWakeUpAndARingBeforeTheSleepEndsItAtOnce() {
        Doorbell doorbell = new Doorbell();
        doorbell.arm();
        doorbell.sleep(1_000_000);
        assertThat(doorbell.wakeups()).isZero();

        doorbell.arm();
        doorbell.ring();
        long before = System.nanoTime();
        doorbell.sleep(LONG_NANOS);
        assertThat(System.nanoTime() - before).isLessThan(LONG_NANOS / 2);
        assertThat(doorbell.wakeups()).isEqualTo(1);
        assertThat(doorbell.sleepNanos()).isZero();
    }

    @Test
    void aRingOfAnOwnerThatIsAwakeSignalsNothing() {
        Doorbell doorbell = new Doorbell();
        doorbell.ring();
        doorbell.arm();
        doorbell.sleep(1_000_000);
        assertThat(doorbell.wakeups()).as("the earlier ring left no wake-up behind").isZero();
    }
}
