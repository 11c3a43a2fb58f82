package io.edp.engine.nic.afpacket;

import static io.edp.engine.nic.afpacket.PacketLayouts.IFF_UP;
import static io.edp.engine.nic.afpacket.PacketLayouts.IFNAMSIZ;
import static io.edp.engine.nic.afpacket.PacketLayouts.IFREQ_FLAGS;
import static io.edp.engine.nic.afpacket.PacketLayouts.IFR_FLAGS;
import static io.edp.engine.nic.afpacket.PacketLayouts.PACKET_ADD_MEMBERSHIP;
import static io.edp.engine.nic.afpacket.PacketLayouts.PACKET_MREQ;
import static io.edp.engine.nic.afpacket.PacketLayouts.PACKET_MR_PROMISC;
import static io.edp.engine.nic.afpacket.PacketLayouts.MR_IFINDEX;
import static io.edp.engine.nic.afpacket.PacketLayouts.MR_TYPE;
import static io.edp.engine.nic.afpacket.PacketLayouts.SLL_FAMILY;
import static io.edp.engine.nic.afpacket.PacketLayouts.SLL_IFINDEX;
import static io.edp.engine.nic.afpacket.PacketLayouts.SLL_PROTOCOL;
import static io.edp.engine.nic.afpacket.PacketLayouts.SOCKADDR_LL;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;

/**
 * One AF_PACKET socket bound to one interface, with its mmap'ed ring. Setup steps throw
 * {@link AfPacketException} naming the interface, the step and errno; {@link #close()} unmaps and closes.
 */
final class PacketSocket implements AutoCloseable {

    private final String interfaceName;
    private final int fd;
    /** errno of the setup and teardown calls made through this socket. */
    private final MemorySegment callState;
    private MemorySegment ring = MemorySegment.NULL;

    private PacketSocket(String interfaceName, int fd, MemorySegment callState) {
        this.interfaceName = interfaceName;
        this.fd = fd;
        this.callState = callState;
    }

    /**
     * The interface's index, checked in the order a user fixes things: the name, its existence (ENODEV),
     * then (with a socket, so after EPERM) that it is up (ENETDOWN).
     */
    static int interfaceIndex(String interfaceName, Arena arena) {
        byte[] name = interfaceName.getBytes(StandardCharsets.US_ASCII);
        if (name.length == 0 || name.length >= IFNAMSIZ) {
            throw new AfPacketException(interfaceName,
                    "interface name must have 1 to " + (IFNAMSIZ - 1) + " characters");
        }
        MemorySegment state = Syscalls.allocateCallState(arena);
        int index = Syscalls.ifNameToIndex(state, arena.allocateFrom(interfaceName));
        if (index == 0) {
            throw new AfPacketException(interfaceName, "if_nametoindex", Syscalls.errno(state));
        }
        return index;
    }

    /** A raw packet socket that receives nothing until {@link #bind} (protocol 0 at creation). */
    static PacketSocket open(String interfaceName, Arena arena) {
        MemorySegment state = Syscalls.allocateCallState(arena);
        int fd = Syscalls.socket(state, Syscalls.AF_PACKET, Syscalls.SOCK_RAW | Syscalls.SOCK_CLOEXEC, 0);
        if (fd < 0) {
            throw new AfPacketException(interfaceName, "socket(AF_PACKET, SOCK_RAW)", Syscalls.errno(state));
        }
        return new PacketSocket(interfaceName, fd, state);
    }

    int fd() {
        return fd;
    }

    /** Fails with ENETDOWN when the interface is administratively down, before any ring is built. */
    void requireUp(Arena arena) {
        MemorySegment request = arena.allocate(IFREQ_FLAGS);
        request.setString(0L, interfaceName);
        if (Syscalls.ioctl(callState, fd, Syscalls.SIOCGIFFLAGS, request) < 0) {
            throw new AfPacketException(interfaceName, "ioctl(SIOCGIFFLAGS)", Syscalls.errno(callState));
        }
        if (((short) IFR_FLAGS.get(request, 0L) & IFF_UP) == 0) {
            throw new AfPacketException(interfaceName, "interface is down (ip link set " + interfaceName + " up)");
        }
    }

    void setInt(int option, int value, String what, Arena arena) {
        setOption(option, arena.allocateFrom(JAVA_INT, value), what);
    }

    /** As {@link #setInt}, but returns false instead of failing when the kernel does not know the option. */
    boolean setIntIfSupported(int option, int value, String what, Arena arena) {
        MemorySegment argument = arena.allocateFrom(JAVA_INT, value);
        if (Syscalls.setsockopt(callState, fd, Syscalls.SOL_PACKET, option, argument) == 0) {
            return true;
        }
        if (Syscalls.errno(callState) == Errno.ENOPROTOOPT.number()) {
            return false;
        }
        throw new AfPacketException(interfaceName, "setsockopt(" + what + ")", Syscalls.errno(callState));
    }

    void setOption(int option, MemorySegment value, String what) {
        if (Syscalls.setsockopt(callState, fd, Syscalls.SOL_PACKET, option, value) < 0) {
            throw new AfPacketException(interfaceName, "setsockopt(" + what + ")", Syscalls.errno(callState));
        }
    }

    /** Reads an option into {@code value} (sized to the option's structure). */
    void getOption(int option, MemorySegment value, String what, Arena arena) {
        MemorySegment state = Syscalls.allocateCallState(arena); // may run on a stats thread: its own errno
        MemorySegment length = arena.allocateFrom(JAVA_INT, (int) value.byteSize());
        if (Syscalls.getsockopt(state, fd, Syscalls.SOL_PACKET, option, value, length) < 0) {
            throw new AfPacketException(interfaceName, "getsockopt(" + what + ")", Syscalls.errno(state));
        }
    }

    /** Maps the ring(s) configured with PACKET_RX_RING / PACKET_TX_RING; unmapped by {@link #close()}. */
    MemorySegment map(long length, Arena arena) {
        MemorySegment mapped = Syscalls.mmap(callState, fd, length, Syscalls.MAP_SHARED);
        if (Syscalls.mapFailed(mapped)) {
            throw new AfPacketException(interfaceName, "mmap of " + length + " bytes", Syscalls.errno(callState));
        }
        // scoped to the driver's arena: once it closes, a stray access fails instead of touching unmapped memory
        ring = mapped.reinterpret(length, arena, null);
        return ring;
    }

    /** Binds to the interface; protocol ETH_P_ALL (network order) receives everything, 0 receives nothing. */
    void bind(int interfaceIndex, short protocolNetworkOrder, Arena arena) {
        MemorySegment address = arena.allocate(SOCKADDR_LL);
        SLL_FAMILY.set(address, 0L, (short) Syscalls.AF_PACKET);
        SLL_PROTOCOL.set(address, 0L, protocolNetworkOrder);
        SLL_IFINDEX.set(address, 0L, interfaceIndex);
        if (Syscalls.bind(callState, fd, address) < 0) {
            throw new AfPacketException(interfaceName, "bind", Syscalls.errno(callState));
        }
    }

    /** Promiscuous mode for as long as this socket lives (the kernel counts memberships per socket). */
    void joinPromiscuous(int interfaceIndex, Arena arena) {
        MemorySegment request = arena.allocate(PACKET_MREQ);
        MR_IFINDEX.set(request, 0L, interfaceIndex);
        MR_TYPE.set(request, 0L, (short) PACKET_MR_PROMISC);
        setOption(PACKET_ADD_MEMBERSHIP, request, "PACKET_ADD_MEMBERSHIP promiscuous");
    }

    @Override
    public void close() {
        int unmapErrno = 0;
        if (ring.address() != 0 && Syscalls.munmap(callState, ring, ring.byteSize()) < 0) {
            unmapErrno = Syscalls.errno(callState);
        }
        ring = MemorySegment.NULL;
        if (Syscalls.close(callState, fd) < 0) {
            throw new AfPacketException(interfaceName, "close", Syscalls.errno(callState));
        }
        if (unmapErrno != 0) {
            throw new AfPacketException(interfaceName, "munmap", unmapErrno);
        }
    }
}
