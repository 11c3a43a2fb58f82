package io.edp.engine.numa;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

/**
 * Zeroed off-heap memory on 2 MiB pages where the kernel has them: an anonymous mmap aligned to 2 MiB and advised
 * {@code MADV_HUGEPAGE} before its first touch (transparent huge pages in {@code madvise} mode back it then), so a
 * table of tens of megabytes costs a handful of TLB entries instead of thousands of page walks. Where mmap or
 * madvise is missing or fails, the memory comes from the arena as usual (4 KiB pages, same contents).
 */
public final class HugePages {

    public static final long PAGE_BYTES = 2L << 20;

    private static final int PROT_READ_WRITE = 1 | 2;
    private static final int MAP_PRIVATE_ANONYMOUS = 0x02 | 0x20;
    private static final int MADV_HUGEPAGE = 14;
    private static final MethodHandle MMAP;
    private static final MethodHandle MADVISE;
    private static final MethodHandle MUNMAP;

    static {
        Linker linker = Linker.nativeLinker();
        var libc = linker.defaultLookup();
        MethodHandle mmap = null;
        MethodHandle madvise = null;
        MethodHandle munmap = null;
        if (libc.find("mmap").isPresent() && libc.find("madvise").isPresent() && libc.find("munmap").isPresent()) {
            mmap = linker.downcallHandle(libc.find("mmap").orElseThrow(),
                    FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_LONG));
            madvise = linker.downcallHandle(libc.find("madvise").orElseThrow(),
                    FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT));
            munmap = linker.downcallHandle(libc.find("munmap").orElseThrow(),
                    FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG));
        }
        MMAP = mmap;
        MADVISE = madvise;
        MUNMAP = munmap;
    }

    private HugePages() {
    }

    /**
     * {@code bytes} of zeroed memory, 64-byte aligned at least (2 MiB when mapped here), freed when {@code arena}
     * closes (or, for an automatic arena, when the segment becomes unreachable).
     */
    public static MemorySegment allocate(Arena arena, long bytes) {
        MemorySegment mapped = MMAP == null || bytes < PAGE_BYTES ? MemorySegment.NULL : map(arena, bytes);
        return mapped.equals(MemorySegment.NULL) ? arena.allocate(bytes, 64) : mapped;
    }

    private static MemorySegment map(Arena arena, long bytes) {
        long length = bytes + PAGE_BYTES; // room to start on a 2 MiB boundary
        try {
            MemorySegment raw = (MemorySegment) MMAP.invokeExact(MemorySegment.NULL, length, PROT_READ_WRITE,
                    MAP_PRIVATE_ANONYMOUS, -1, 0L);
            if (raw.address() == -1L) {
                return MemorySegment.NULL;
            }
            long start = (raw.address() + PAGE_BYTES - 1) & -PAGE_BYTES;
            MemorySegment aligned = MemorySegment.ofAddress(start);
            // advice only: 4 KiB pages if refused
            int ignored = (int) MADVISE.invokeExact(aligned, bytes, MADV_HUGEPAGE);
            return aligned.reinterpret(bytes, arena, segment -> unmap(raw, length));
        } catch (Throwable t) {
            throw new IllegalStateException("mmap of " + bytes + " bytes failed", t);
        }
    }

    private static void unmap(MemorySegment raw, long length) {
        try {
            int ignored = (int) MUNMAP.invokeExact(raw, length);
        } catch (Throwable t) {
            throw new IllegalStateException("munmap failed", t);
        }
    }
}
