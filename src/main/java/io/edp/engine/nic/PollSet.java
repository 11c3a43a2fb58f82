package io.edp.engine.nic;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.Arrays;

/**
 * What a {@link Doorbell} waits on once a driver gave it descriptors: those descriptors and an eventfd beside them,
 * in one {@code ppoll(2)} through the FFM API. Any thread {@link #signal signals} by writing the eventfd; the owner
 * thread {@link #await waits} and drains it. No call here captures errno or allocates: a failed wait is a wake-up.
 */
final class PollSet implements AutoCloseable {

    private static final int EFD_NONBLOCK = 0x800;
    private static final int EFD_CLOEXEC = 0x80000;
    private static final short POLLIN = 1;
    private static final long POLLFD_BYTES = 8; // struct pollfd { int fd; short events; short revents; }
    private static final long REVENTS = 6;

    private static final Linker LINKER = Linker.nativeLinker();
    private static final MethodHandle EVENTFD = downcall("eventfd",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT));
    private static final MethodHandle PPOLL = downcall("ppoll",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS, ADDRESS));
    private static final MethodHandle READ = downcall("read",
            FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG));
    private static final MethodHandle WRITE = downcall("write",
            FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG));
    private static final MethodHandle CLOSE = downcall("close", FunctionDescriptor.of(JAVA_INT, JAVA_INT));

    private final Arena arena = Arena.ofShared();
    private final int eventFd;
    /** The 8-byte counter increment every signal writes: written once, only read after. */
    private final MemorySegment one;
    /** The owner's: the drained counter and the timeout (struct timespec). */
    private final MemorySegment drained;
    private final MemorySegment timeout;
    private int[] descriptors = new int[0];
    /** pollfd entries: the eventfd first, then {@link #descriptors}. */
    private MemorySegment pollFds;

    PollSet() {
        eventFd = eventfd();
        one = arena.allocateFrom(JAVA_LONG, 1L);
        drained = arena.allocate(JAVA_LONG);
        timeout = arena.allocate(JAVA_LONG, 2);
        rebuild();
    }

    private static MethodHandle downcall(String name, FunctionDescriptor descriptor) {
        MemorySegment symbol = LINKER.defaultLookup().find(name)
                .orElseThrow(() -> new UnsatisfiedLinkError("libc has no " + name));
        return LINKER.downcallHandle(symbol, descriptor);
    }

    private static int eventfd() {
        int fd;
        try {
            fd = (int) EVENTFD.invokeExact(0, EFD_NONBLOCK | EFD_CLOEXEC);
        } catch (Throwable t) {
            throw new IllegalStateException("eventfd failed to link", t);
        }
        if (fd < 0) {
            throw new IllegalStateException("eventfd(2) failed: the doorbell needs one descriptor");
        }
        return fd;
    }

    /** Owner thread: waits on {@code fd} too (readable = work). */
    void add(int fd) {
        descriptors = Arrays.copyOf(descriptors, descriptors.length + 1);
        descriptors[descriptors.length - 1] = fd;
        rebuild();
    }

    /** Owner thread: stops waiting on {@code fd}. */
    void remove(int fd) {
        for (int i = 0; i < descriptors.length; i++) {
            if (descriptors[i] == fd) {
                descriptors[i] = descriptors[descriptors.length - 1];
                descriptors = Arrays.copyOf(descriptors, descriptors.length - 1);
                rebuild();
                return;
            }
        }
    }

    int descriptorCount() {
        return descriptors.length;
    }

    /** Lays the pollfd array out again (on attach and detach only, never per wait). */
    private void rebuild() {
        MemorySegment fds = Arena.ofAuto().allocate(POLLFD_BYTES * (descriptors.length + 1), 8);
        for (int i = 0; i <= descriptors.length; i++) {
            fds.set(JAVA_INT, i * POLLFD_BYTES, i == 0 ? eventFd : descriptors[i - 1]);
            fds.set(JAVA_SHORT, i * POLLFD_BYTES + 4, POLLIN);
        }
        pollFds = fds;
    }

    /**
     * Owner thread: returns when a descriptor is readable, the eventfd was signalled, or after {@code nanos};
     * true unless the time ran out.
     */
    boolean await(long nanos) {
        MemorySegment fds = pollFds;
        timeout.setAtIndex(JAVA_LONG, 0, nanos / 1_000_000_000L);
        timeout.setAtIndex(JAVA_LONG, 1, nanos % 1_000_000_000L);
        try {
            int ready = (int) PPOLL.invokeExact(fds, (long) descriptors.length + 1, timeout, MemorySegment.NULL);
            if (ready > 0 && fds.get(JAVA_SHORT, REVENTS) != 0) {
                long ignored = (long) READ.invokeExact(eventFd, drained, 8L); // resets the counter to 0
            }
            return ready != 0; // -1 is EINTR: a signal, not a timeout
        } catch (Throwable t) {
            throw new IllegalStateException("ppoll failed to link", t);
        }
    }

    /** Any thread: makes the eventfd readable, ending a wait in progress or the next one. */
    void signal() {
        try {
            long ignored = (long) WRITE.invokeExact(eventFd, one, 8L);
        } catch (IllegalStateException closed) {
            // the set closed under a late ring: its worker has ended, there is nobody to wake
        } catch (Throwable t) {
            throw new IllegalStateException("write failed to link", t);
        }
    }

    /**
     * The arena first: once it is closed a late {@link #signal} fails before reaching the descriptor, which is
     * closed second (so a write never lands on a reused descriptor number). A write in flight holds the arena.
     */
    @Override
    public void close() {
        while (true) {
            try {
                arena.close();
                break;
            } catch (IllegalStateException inUse) {
                Thread.onSpinWait();
            }
        }
        try {
            int ignored = (int) CLOSE.invokeExact(eventFd);
        } catch (Throwable t) {
            throw new IllegalStateException("close failed to link", t);
        }
    }
}
