package io.edp.engine.packetlog;

import io.edp.engine.packet.FlowKey;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * A {@link PacketLogWriter} record as a line in the field order of NSX's dfwpktlogs:
 * <pre>
 *  2026-12-03T05:30:00.125Z vm-a-eth0 INET match PASS 1001 OUT 60 TCP 10.0.0.1/40000-&gt;10.0.0.2/80 S
 *  2026-12-03T05:30:09.500Z vm-a-eth0 INET TERM 1001 OUT TCP FIN 10.0.0.1/40000-&gt;10.0.0.2/80 6/5 480/1900
 * </pre>
 * timestamp (UTC), interface, INET or INET6, {@code match} and the action (PASS, DROP, REJECT) or {@code TERM},
 * rule id, direction (OUT when the packet left a VM through the interface, IN when it arrives at one), the
 * packet's length (not on TERM), protocol, source/port-&gt;destination/port (ports for TCP and UDP only), then TCP
 * flags for a first packet (S, A, F, R, P, U) or, for TERM, the reason (FIN, RST, TIMEOUT, REVOKED, CLEARED) before the
 * addresses and packets and bytes from/to the initiator after them. Drainer thread only.
 */
final class LogLine {

    /** RFC 3339 in UTC with milliseconds, as the line and its syslog header write it. */
    static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'")
            .withZone(ZoneOffset.UTC);
    private static final String[] ACTIONS = {"", "PASS", "DROP", "REJECT", "TERM"};
    private static final String[] REASONS = {"", "FIN", "RST", "TIMEOUT", "REVOKED", "CLEARED"};
    private static final String FLAG_LETTERS = "FSRPAU";

    /** The engine's ports as lines name them: names by port id, and which are uplinks. */
    record Ports(String[] names, boolean[] uplinks) {

        String name(int port) {
            return port >= 0 && port < names.length && names[port] != null ? names[port] : "port" + port;
        }

        boolean uplink(int port) {
            return port >= 0 && port < uplinks.length && uplinks[port];
        }
    }

    private LogLine() {
    }

    /** Appends the line of the record at {@code base}, stamped {@code wallMillis}. */
    static void append(StringBuilder line, long[] r, int base, long wallMillis, Ports ports) {
        long header = r[base];
        int kind = (int) (header >>> 56);
        int reason = (int) (header >>> 48) & 0xFF;
        int version = (int) (header >>> 40) & 0xFF;
        int proto = (int) (header >>> 32) & 0xFF;
        int tcpFlags = (int) (header >>> 24) & 0xFF;
        int ruleId = (int) r[base + 1];
        int inPort = (int) (r[base + 2] >>> 32);
        int outPort = (int) r[base + 2];
        boolean fromVm = !ports.uplink(inPort);
        int iface = fromVm || outPort < 0 || ports.uplink(outPort) ? inPort : outPort;
        TIMESTAMP.formatTo(Instant.ofEpochMilli(wallMillis), line);
        line.append(' ').append(ports.name(iface)).append(version == 6 ? " INET6 " : " INET ");
        if (kind == PacketLogWriter.TERM) {
            line.append("TERM ");
        } else {
            line.append("match ").append(ACTIONS[kind]).append(' ');
        }
        line.append(Integer.toUnsignedString(ruleId)).append(fromVm ? " OUT " : " IN ");
        if (kind != PacketLogWriter.TERM) {
            line.append(r[base + 3] >>> 32).append(' ');
        }
        line.append(protocol(proto)).append(' ');
        if (kind == PacketLogWriter.TERM) {
            line.append(REASONS[reason]).append(' ');
        }
        boolean ports4 = proto == FlowKey.PROTO_TCP || proto == FlowKey.PROTO_UDP;
        address(line, version, r[base + 4], r[base + 5]);
        if (ports4) {
            line.append('/').append((r[base + 3] >>> 16) & 0xFFFF);
        }
        line.append("->");
        address(line, version, r[base + 6], r[base + 7]);
        if (ports4) {
            line.append('/').append(r[base + 3] & 0xFFFF);
        }
        if (kind == PacketLogWriter.TERM) {
            line.append(' ').append(r[base + 8]).append('/').append(r[base + 9])
                    .append(' ').append(r[base + 10]).append('/').append(r[base + 11]);
        } else if (proto == FlowKey.PROTO_TCP) {
            line.append(' ');
            flags(line, tcpFlags);
        }
    }

    private static String protocol(int proto) {
        return switch (proto) {
            case FlowKey.PROTO_TCP -> "TCP";
            case FlowKey.PROTO_UDP -> "UDP";
            case FlowKey.PROTO_ICMP -> "ICMP";
            case FlowKey.PROTO_ICMPV6 -> "IPV6-ICMP";
            default -> "PROTO" + proto;
        };
    }

    /** SYN first, as NSX writes them: S, A, F, R, P, U; "-" for none. */
    private static void flags(StringBuilder line, int tcpFlags) {
        int before = line.length();
        for (int bit : new int[] {1, 4, 0, 2, 3, 5}) {
            if ((tcpFlags & (1 << bit)) != 0) {
                line.append(FLAG_LETTERS.charAt(bit));
            }
        }
        if (line.length() == before) {
            line.append('-');
        }
    }

    private static void address(StringBuilder line, int version, long hi, long lo) {
        if (version != 6) {
            int a = (int) (hi >>> 32);
            line.append(a >>> 24).append('.').append((a >>> 16) & 0xFF).append('.').append((a >>> 8) & 0xFF)
                    .append('.').append(a & 0xFF);
            return;
        }
        // RFC 5952: lower-case hex groups, the longest run of two or more zero groups (the first of equals) as ::
        int[] groups = new int[8];
        for (int i = 0; i < 8; i++) {
            groups[i] = (int) ((i < 4 ? hi >>> (48 - 16 * i) : lo >>> (48 - 16 * (i - 4))) & 0xFFFF);
        }
        int bestStart = -1;
        int bestLength = 1;
        for (int i = 0; i < 8;) {
            int j = i;
            while (j < 8 && groups[j] == 0) {
                j++;
            }
            if (j - i > bestLength) {
                bestStart = i;
                bestLength = j - i;
            }
            i = j == i ? i + 1 : j;
        }
        for (int i = 0; i < 8; i++) {
            if (i == bestStart) {
                line.append("::");
                i += bestLength - 1;
                continue;
            }
            if (i > 0 && i != bestStart + bestLength) {
                line.append(':');
            }
            line.append(Integer.toHexString(groups[i]));
        }
    }
}
