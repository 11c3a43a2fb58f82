package io.edp.engine.nic.afpacket;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout.PathElement;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;

/**
 * The libc calls a packet socket needs, as FFM downcall handles (no JNI). Every call captures {@code errno}
 * into a caller-owned call-state segment (setup and teardown calls), except the per-burst TX kick (see
 * {@code SENDTO}). Results are raw: callers turn failures into {@link AfPacketException}s that name the interface
 * and the operation.
 */
final class Syscalls {

    static final int AF_PACKET = 17;
    static final int SOCK_RAW = 3;
    static final int SOCK_CLOEXEC = 0x80000;
    static final int SOL_PACKET = 263;
    static final int MSG_DONTWAIT = 0x40;
    static final int PROT_READ = 1;
    static final int PROT_WRITE = 2;
    static final int MAP_SHARED = 1;
    static final long SIOCGIFFLAGS = 0x8913;

    private static final Linker LINKER = Linker.nativeLinker();
    private static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CALL_STATE.varHandle(PathElement.groupElement("errno"));
    private static final Linker.Option CAPTURE_ERRNO = Linker.Option.captureCallState("errno");

    private static final MethodHandle SOCKET = downcall("socket",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT));
    private static final MethodHandle SETSOCKOPT = downcall("setsockopt",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT));
    private static final MethodHandle GETSOCKOPT = downcall("getsockopt",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, ADDRESS));
    private static final MethodHandle BIND = downcall("bind",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT));
    private static final MethodHandle MMAP = downcall("mmap",
            FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_LONG));
    private static final MethodHandle MUNMAP = downcall("munmap", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG));
    // The TX kick runs once per burst, so it does not capture errno: capturing slices the capture segment on every
    // call (SharedUtils.checkCaptureSegment), 40 bytes per burst unless the JIT inlines the whole call chain. Its
    // errno, read after a failure through __errno_location, only feeds a diagnostic counter.
    private static final MethodHandle SENDTO = LINKER.downcallHandle(symbol("sendto"),
            FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT, ADDRESS, JAVA_INT));
    private static final MethodHandle ERRNO_LOCATION = LINKER.downcallHandle(symbol("__errno_location"),
            FunctionDescriptor.of(ADDRESS.withTargetLayout(JAVA_INT)));
    private static final MethodHandle CLOSE = downcall("close", FunctionDescriptor.of(JAVA_INT, JAVA_INT));
    private static final MethodHandle IF_NAMETOINDEX = downcall("if_nametoindex",
            FunctionDescriptor.of(JAVA_INT, ADDRESS));
    // ioctl is variadic: the request argument is the last fixed one
    private static final MethodHandle IOCTL = downcall("ioctl",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG, ADDRESS), Linker.Option.firstVariadicArg(2));

    private Syscalls() {
    }

    private static MethodHandle downcall(String name, FunctionDescriptor descriptor, Linker.Option... extra) {
        Linker.Option[] options = new Linker.Option[extra.length + 1];
        options[0] = CAPTURE_ERRNO;
        System.arraycopy(extra, 0, options, 1, extra.length);
        return LINKER.downcallHandle(symbol(name), descriptor, options);
    }

    private static MemorySegment symbol(String name) {
        return LINKER.defaultLookup().find(name).orElseThrow(() -> new UnsatisfiedLinkError("libc has no " + name));
    }

    /** A segment to receive errno; one per thread that makes calls (a queue owns one). */
    static MemorySegment allocateCallState(Arena arena) {
        return arena.allocate(CALL_STATE);
    }

    static int errno(MemorySegment callState) {
        return (int) ERRNO.get(callState, 0L);
    }

    static int socket(MemorySegment state, int domain, int type, int protocol) {
        try {
            return (int) SOCKET.invokeExact(state, domain, type, protocol);
        } catch (Throwable t) {
            throw linkageFailure(t);
        }
    }

    static int setsockopt(MemorySegment state, int fd, int level, int option, MemorySegment value) {
        try {
            return (int) SETSOCKOPT.invokeExact(state, fd, level, option, value, (int) value.byteSize());
        } catch (Throwable t) {
            throw linkageFailure(t);
        }
    }

    /** Reads an option into {@code value}; {@code length} holds its size in and the bytes written out. */
    static int getsockopt(MemorySegment state, int fd, int level, int option, MemorySegment value,
            MemorySegment length) {
        try {
            return (int) GETSOCKOPT.invokeExact(state, fd, level, option, value, length);
        } catch (Throwable t) {
            throw linkageFailure(t);
        }
    }

    static int bind(MemorySegment state, int fd, MemorySegment address) {
        try {
            return (int) BIND.invokeExact(state, fd, address, (int) address.byteSize());
        } catch (Throwable t) {
            throw linkageFailure(t);
        }
    }

    /** Maps {@code length} bytes of the socket's rings; returns MAP_FAILED ((void *) -1) on failure. */
    static MemorySegment mmap(MemorySegment state, int fd, long length, int flags) {
        try {
            return (MemorySegment) MMAP.invokeExact(state, MemorySegment.NULL, length, PROT_READ | PROT_WRITE, flags,
                    fd, 0L);
        } catch (Throwable t) {
            throw linkageFailure(t);
        }
    }

    static boolean mapFailed(MemorySegment mapped) {
        return mapped.address() == -1L;
    }

    static int munmap(MemorySegment state, MemorySegment address, long length) {
        try {
            return (int) MUNMAP.invokeExact(state, address, length);
        } catch (Throwable t) {
            throw linkageFailure(t);
        }
    }

    /** Kicks a TX ring: the kernel sends every frame marked SEND_REQUEST. Returns bytes queued or -1. */
    static long kick(int fd) {
        try {
            return (long) SENDTO.invokeExact(fd, MemorySegment.NULL, 0L, MSG_DONTWAIT, MemorySegment.NULL, 0);
        } catch (Throwable t) {
            throw linkageFailure(t);
        }
    }

    /** This thread's errno as libc holds it now: right after a failed {@link #kick}, its cause (best effort). */
    static int currentErrno() {
        try {
            return ((MemorySegment) ERRNO_LOCATION.invokeExact()).get(JAVA_INT, 0L);
        } catch (Throwable t) {
            throw linkageFailure(t);
        }
    }

    static int close(MemorySegment state, int fd) {
        try {
            return (int) CLOSE.invokeExact(state, fd);
        } catch (Throwable t) {
            throw linkageFailure(t);
        }
    }

    /** The interface's index, or 0 (errno set) when there is none by that name. */
    static int ifNameToIndex(MemorySegment state, MemorySegment name) {
        try {
            return (int) IF_NAMETOINDEX.invokeExact(state, name);
        } catch (Throwable t) {
            throw linkageFailure(t);
        }
    }

    static int ioctl(MemorySegment state, int fd, long request, MemorySegment argument) {
        try {
            return (int) IOCTL.invokeExact(state, fd, request, argument);
        } catch (Throwable t) {
            throw linkageFailure(t);
        }
    }

    private static IllegalStateException linkageFailure(Throwable t) {
        return new IllegalStateException("native call failed to link or invoke", t);
    }
}
