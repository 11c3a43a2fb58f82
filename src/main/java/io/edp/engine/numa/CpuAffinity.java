package io.edp.engine.numa;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * The calling thread's CPU affinity through Linux's {@code sched_setaffinity}/{@code sched_getaffinity},
 * called with the Foreign Function API (pid 0 = the calling thread). The mask is a {@code cpu_set_t} of
 * {@value #MASK_BITS} bits, glibc's default.
 */
public final class CpuAffinity {

    static final int MASK_BITS = 1024;
    private static final long MASK_BYTES = MASK_BITS / 8;

    private static final Linker LINKER = Linker.nativeLinker();
    private static final Linker.Option ERRNO = Linker.Option.captureCallState("errno");
    private static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO_HANDLE =
            CALL_STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    private static final FunctionDescriptor SIGNATURE = FunctionDescriptor.of(
            ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.ADDRESS);
    private static final MethodHandle SET = function("sched_setaffinity");
    private static final MethodHandle GET = function("sched_getaffinity");

    private CpuAffinity() {
    }

    private static MethodHandle function(String name) {
        return LINKER.defaultLookup().find(name)
                .map(address -> LINKER.downcallHandle(address, SIGNATURE, ERRNO))
                .orElse(null);
    }

    /** Whether this platform has the calls (Linux with glibc or musl). */
    public static boolean isSupported() {
        return SET != null && GET != null;
    }

    /** Restricts the calling thread to {@code cpus}. */
    public static void pinCurrentThread(CpuSet cpus) {
        if (cpus.isEmpty()) {
            throw new IllegalArgumentException("cannot pin a thread to no CPU");
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment mask = arena.allocate(MASK_BYTES, 8);
            for (int cpu : cpus.cpus()) {
                if (cpu >= MASK_BITS) {
                    throw new IllegalArgumentException("CPU " + cpu + " beyond a " + MASK_BITS + "-bit cpu_set_t");
                }
                long at = cpu / 8;
                mask.set(ValueLayout.JAVA_BYTE, at, (byte) (mask.get(ValueLayout.JAVA_BYTE, at) | (1 << (cpu % 8))));
            }
            call(SET, "sched_setaffinity", arena, mask);
        }
    }

    /** The CPUs the calling thread may run on. */
    public static CpuSet currentThreadAffinity() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment mask = arena.allocate(MASK_BYTES, 8);
            call(GET, "sched_getaffinity", arena, mask);
            SortedSet<Integer> cpus = new TreeSet<>();
            for (int cpu = 0; cpu < MASK_BITS; cpu++) {
                if ((mask.get(ValueLayout.JAVA_BYTE, cpu / 8) & (1 << (cpu % 8))) != 0) {
                    cpus.add(cpu);
                }
            }
            return new CpuSet(cpus);
        }
    }

    private static void call(MethodHandle function, String name, Arena arena, MemorySegment mask) {
        if (function == null) {
            throw new UnsupportedOperationException(name + " is not available on this platform");
        }
        MemorySegment callState = arena.allocate(CALL_STATE);
        int result;
        try {
            result = (int) function.invokeExact(callState, 0, MASK_BYTES, mask);
        } catch (Throwable e) {
            throw new IllegalStateException(name + " failed", e);
        }
        if (result != 0) {
            throw new IllegalStateException(name + " failed, errno " + (int) ERRNO_HANDLE.get(callState, 0L));
        }
    }
}
