package io.edp.engine.nic;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * A worker's doorbell: how a NIC (or the control side) wakes the worker when it sleeps, as a NIC's interrupt wakes
 * a driver in interrupt mode. The worker {@link #attach attaches} each RX queue it polls; a driver that can signal
 * keeps the doorbell: the loopback NIC {@link #ring rings} it after putting frames on an RX queue, the af_packet
 * driver {@link #watch gives it} the queue's socket descriptor. A worker whose queues all have a doorbell may sleep
 * long; one with a {@link #deaf deaf} queue (the pcap driver) must come back soon to poll it.
 *
 * <p>The handshake has no lost wake-up: the worker {@link #arm arms} (publishes that it means to sleep, then a full
 * fence), polls everything once more, and only then {@link #sleep sleeps}; a ringer publishes its frames or its
 * task, fences, and signals only when it sees the worker armed. Either the last poll sees the work, or the ringer
 * sees the worker armed. One ring per sleep signals (the ringer that disarms it), so a burst of rings costs one
 * wake-up. Without descriptors the worker sleeps in {@link LockSupport#parkNanos}; with any, in {@code ppoll(2)}
 * on them and an eventfd that a ring writes ({@link PollSet}).
 */
public final class Doorbell implements AutoCloseable {

    private static final VarHandle SLEEPER;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            SLEEPER = lookup.findVarHandle(Doorbell.class, "sleeper", Thread.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The armed worker's thread, null when it does not mean to sleep (or a ring already woke it). */
    private volatile Thread sleeper;
    /** Created with the first descriptor; from then on the worker sleeps in ppoll. */
    private volatile PollSet pollSet;
    /** Sleeps that ended before their time (a ring, a readable descriptor); written by the owner only. */
    private volatile long wakeups;
    /** The length of the sleep in progress, 0 when awake: for tests and the benchmark. */
    private volatile long sleepNanos;
    /** When the ring that disarmed the owner signalled (System.nanoTime), 0 when none did since it armed. */
    private volatile long rungAtNanos;
    /** From the ring that ended the last rung sleep to the owner running again. */
    private volatile long wakeLatencyNanos;
    private int deafQueues;

    /**
     * Owner thread (or before it starts): {@code driver}'s {@code rxQueue} now rings this doorbell, or counts as
     * deaf when the driver cannot signal.
     */
    public void attach(NicDriver driver, int rxQueue) {
        if (!driver.attachDoorbell(rxQueue, this)) {
            deafQueues++;
        }
    }

    /** Owner thread: undoes {@link #attach} for a queue the worker lets go. */
    public void detach(NicDriver driver, int rxQueue) {
        if (!driver.detachDoorbell(rxQueue, this)) {
            deafQueues--;
        }
    }

    /** True when some attached queue cannot ring: its worker must not sleep longer than it may leave it unpolled. */
    public boolean deaf() {
        return deafQueues > 0;
    }

    /** Owner thread, from a driver's {@link NicDriver#attachDoorbell}: sleeps also end when {@code fd} is readable. */
    public void watch(int fd) {
        PollSet p = pollSet;
        if (p == null) {
            p = new PollSet();
            pollSet = p;
        }
        p.add(fd);
    }

    /** Owner thread, from a driver's {@link NicDriver#detachDoorbell}: stops watching {@code fd}. */
    public void unwatch(int fd) {
        PollSet p = pollSet;
        if (p != null) {
            p.remove(fd);
        }
    }

    /** Owner thread: the next {@link #sleep} may begin; poll every source of work once more before it. */
    public void arm() {
        rungAtNanos = 0;
        sleeper = Thread.currentThread();
        VarHandle.fullFence(); // the arming before the last poll's reads
    }

    /** Owner thread: the last poll found work, no sleep follows. */
    public void disarm() {
        sleeper = null;
    }

    /**
     * Owner thread, after {@link #arm}: sleeps up to {@code nanos}, less when rung or (with descriptors) when one
     * becomes readable. Returns at once when a ring came since arming.
     */
    public void sleep(long nanos) {
        if (sleeper == null) {
            woke(); // rung between arm and now: its signal is pending, the work is there
            return;
        }
        sleepNanos = nanos;
        PollSet p = pollSet;
        boolean woken;
        if (p != null) {
            woken = p.await(nanos);
        } else {
            LockSupport.parkNanos(nanos);
            woken = sleeper == null; // the ringer disarmed it (a spurious return counts as a timeout)
        }
        sleepNanos = 0;
        sleeper = null;
        if (woken) {
            woke();
        }
    }

    private void woke() {
        wakeups++;
        long rung = rungAtNanos;
        if (rung != 0) {
            wakeLatencyNanos = System.nanoTime() - rung;
        }
    }

    /**
     * Any thread, after publishing work (frames on a queue, a task, a generation, a stop): wakes the owner if it is
     * armed or asleep. Costs a fence and a read when it is awake, one wake-up when it is not.
     */
    public void ring() {
        VarHandle.fullFence(); // the caller's work before the read of sleeper
        Thread s = sleeper;
        if (s == null || !SLEEPER.compareAndSet(this, s, null)) {
            return;
        }
        rungAtNanos = System.nanoTime();
        PollSet p = pollSet;
        if (p != null) {
            p.signal();
        } else {
            LockSupport.unpark(s);
        }
    }

    /** Sleeps that ended before their timeout: rung, or a watched descriptor became readable. Any thread. */
    public long wakeups() {
        return wakeups;
    }

    /**
     * From the ring that ended the owner's last rung sleep to the owner running again (its wake-up latency), 0
     * before the first. Any thread.
     */
    public long wakeLatencyNanos() {
        return wakeLatencyNanos;
    }

    /** The length of the sleep in progress, 0 when the owner is awake. Any thread. */
    public long sleepNanos() {
        return sleepNanos;
    }

    /** Closes the eventfd, if any; owner thread after its last sleep. A later ring unparks, harmlessly. */
    @Override
    public void close() {
        PollSet p = pollSet;
        if (p != null) {
            pollSet = null;
            p.close();
        }
    }
}
