package io.edp.engine.capture;

import static io.edp.engine.packet.NetworkOrder.U16;
import static io.edp.engine.packet.NetworkOrder.U32;
import static io.edp.engine.packet.NetworkOrder.U64;

import io.edp.engine.slowpath.Cidr;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;

/**
 * Which frames a capture keeps, as tcpdump's {@code (net A or net B) and (port P or port Q) and proto X}: every
 * given part must hold; a part left empty holds for every frame. An address matches the frame's source or
 * destination, a port its TCP, UDP or SCTP source or destination port. A frame that is not IP passes only a filter
 * with no part at all.
 * <p>
 * The worker evaluates it on the frame's own header bytes (Ethernet, up to two VLAN tags, IPv4 or IPv6 with its
 * extension headers), not on the parser's flow key: a transmitted frame (a REJECT reply, for one) may have no key,
 * and a received one is tapped before it is parsed. It runs only for frames of the captured port and direction and
 * allocates nothing.
 *
 * @param protocol an IP protocol number, or {@link #ANY_PROTOCOL}
 */
public record CaptureFilter(List<Cidr> addresses, List<Integer> ports, int protocol) {

    public static final int ANY_PROTOCOL = -1;
    public static final int MAX_ENTRIES = 16;
    public static final CaptureFilter ALL = new CaptureFilter(List.of(), List.of(), ANY_PROTOCOL);

    private static final int ETHERTYPE_VLAN = 0x8100;
    private static final int ETHERTYPE_QINQ = 0x88a8;
    private static final int ETHERTYPE_IPV4 = 0x0800;
    private static final int ETHERTYPE_IPV6 = 0x86dd;
    private static final int IPV6_FRAGMENT = 44;
    private static final int MAX_EXTENSION_HEADERS = 4;

    public CaptureFilter {
        addresses = List.copyOf(addresses);
        ports = List.copyOf(ports);
        if (addresses.size() > MAX_ENTRIES || ports.size() > MAX_ENTRIES) {
            throw new IllegalArgumentException("filter: at most " + MAX_ENTRIES + " addresses and ports");
        }
        for (int port : ports) {
            if (port < 0 || port > 65_535) {
                throw new IllegalArgumentException("filter.ports: a port is 0..65535: " + port);
            }
        }
        if (protocol < ANY_PROTOCOL || protocol > 255) {
            throw new IllegalArgumentException("filter.protocol: 0..255: " + protocol);
        }
    }

    /** The filter in the primitive form the workers evaluate. */
    Compiled compile() {
        int n = addresses.size();
        Compiled c = new Compiled(n, ports.size(), protocol);
        for (int i = 0; i < n; i++) {
            Cidr cidr = addresses.get(i);
            c.version[i] = cidr.version();
            c.hi[i] = cidr.hi();
            c.lo[i] = cidr.lo();
            c.maskHi[i] = Cidr.maskHi(cidr.length());
            c.maskLo[i] = Cidr.maskLo(cidr.length());
        }
        for (int i = 0; i < ports.size(); i++) {
            c.ports[i] = ports.get(i);
        }
        return c;
    }

    /** The filter as arrays; {@link #matches} reads a frame's headers in place. Immutable once built. */
    static final class Compiled {

        private final int[] version;
        private final long[] hi;
        private final long[] lo;
        private final long[] maskHi;
        private final long[] maskLo;
        private final int[] ports;
        private final int protocol;
        private final boolean all;

        private Compiled(int addresses, int portCount, int protocol) {
            version = new int[addresses];
            hi = new long[addresses];
            lo = new long[addresses];
            maskHi = new long[addresses];
            maskLo = new long[addresses];
            ports = new int[portCount];
            this.protocol = protocol;
            all = addresses == 0 && portCount == 0 && protocol == ANY_PROTOCOL;
        }

        /** Whether the frame {@code s[off, off + length)} passes. */
        boolean matches(MemorySegment s, long off, int length) {
            if (all) {
                return true;
            }
            long end = off + length;
            long l3 = off + 12;
            int type = 0;
            for (int tags = 0; tags <= 2 && l3 + 2 <= end; tags++) {
                type = Short.toUnsignedInt(s.get(U16, l3));
                l3 += 2;
                if (type != ETHERTYPE_VLAN && type != ETHERTYPE_QINQ) {
                    break;
                }
                l3 += 2;
            }
            if (type == ETHERTYPE_IPV4 && l3 + 20 <= end) {
                int ihl = (s.get(ValueLayout.JAVA_BYTE, l3) & 0x0F) * 4;
                boolean laterFragment = (s.get(U16, l3 + 6) & 0x1FFF) != 0;
                return match(s, s.get(ValueLayout.JAVA_BYTE, l3 + 9) & 0xFF, 4,
                        (long) s.get(U32, l3 + 12) << 32, 0, (long) s.get(U32, l3 + 16) << 32, 0,
                        laterFragment ? -1 : l3 + ihl, end);
            }
            if (type == ETHERTYPE_IPV6 && l3 + 40 <= end) {
                int next = s.get(ValueLayout.JAVA_BYTE, l3 + 6) & 0xFF;
                long l4 = l3 + 40;
                for (int i = 0; i < MAX_EXTENSION_HEADERS && extension(next) && l4 >= 0; i++) {
                    if (l4 + 8 > end) {
                        l4 = -1; // headers cut short: no ports
                        break;
                    }
                    int header = next;
                    next = s.get(ValueLayout.JAVA_BYTE, l4) & 0xFF;
                    if (header != IPV6_FRAGMENT) {
                        l4 += (s.get(ValueLayout.JAVA_BYTE, l4 + 1) & 0xFF) * 8 + 8;
                    } else {
                        l4 = (s.get(U16, l4 + 2) & 0xFFF8) != 0 ? -1 : l4 + 8; // a later fragment: no ports
                    }
                }
                return match(s, next, 6, s.get(U64, l3 + 8), s.get(U64, l3 + 16), s.get(U64, l3 + 24),
                        s.get(U64, l3 + 32), l4, end);
            }
            return false;
        }

        private static boolean extension(int next) {
            return next == 0 || next == 43 || next == 60 || next == IPV6_FRAGMENT;
        }

        private boolean match(MemorySegment s, int proto, int ipVersion, long srcHi, long srcLo, long dstHi,
                long dstLo, long l4, long end) {
            if (protocol != ANY_PROTOCOL && proto != protocol) {
                return false;
            }
            if (hi.length > 0 && !address(ipVersion, srcHi, srcLo) && !address(ipVersion, dstHi, dstLo)) {
                return false;
            }
            if (ports.length == 0) {
                return true;
            }
            if (l4 < 0 || l4 + 4 > end || proto != 6 && proto != 17 && proto != 132) {
                return false;
            }
            return port(Short.toUnsignedInt(s.get(U16, l4))) || port(Short.toUnsignedInt(s.get(U16, l4 + 2)));
        }

        private boolean address(int ipVersion, long addrHi, long addrLo) {
            for (int i = 0; i < hi.length; i++) {
                if ((version[i] == ipVersion || version[i] == 0) && (addrHi & maskHi[i]) == hi[i]
                        && (addrLo & maskLo[i]) == lo[i]) {
                    return true;
                }
            }
            return false;
        }

        private boolean port(int port) {
            for (int p : ports) {
                if (p == port) {
                    return true;
                }
            }
            return false;
        }
    }
}
