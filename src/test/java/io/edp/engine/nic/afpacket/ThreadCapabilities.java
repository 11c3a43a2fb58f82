package io.edp.engine.nic.afpacket;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

/** Linux capabilities are per thread: a test can take one away from a throwaway thread and leave the JVM as it was. */
public final class ThreadCapabilities {

    private ThreadCapabilities() {
    }

    /** capget/capset on the calling thread: clear CAP_NET_RAW (bit 13) from the effective set. */
    public static void dropNetRaw() {
        Linker linker = Linker.nativeLinker();
        FunctionDescriptor signature = FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS);
        MethodHandle capget = linker.downcallHandle(linker.defaultLookup().find("capget").orElseThrow(), signature);
        MethodHandle capset = linker.downcallHandle(linker.defaultLookup().find("capset").orElseThrow(), signature);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment header = arena.allocate(8);
            header.set(JAVA_INT, 0, 0x20080522); // _LINUX_CAPABILITY_VERSION_3
            header.set(JAVA_INT, 4, 0); // this thread
            MemorySegment data = arena.allocate(24); // two {effective, permitted, inheritable}
            if ((int) capget.invokeExact(header, data) != 0) {
                throw new IllegalStateException("capget failed");
            }
            data.set(JAVA_INT, 0, data.get(JAVA_INT, 0) & ~(1 << 13));
            if ((int) capset.invokeExact(header, data) != 0) {
                throw new IllegalStateException("capset failed");
            }
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }
}
