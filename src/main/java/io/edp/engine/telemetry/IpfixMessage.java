package io.edp.engine.telemetry;

import io.edp.engine.packet.FlowKey;
import java.nio.ByteBuffer;

/**
 * One IPFIX message (RFC 7011) being written into a buffer of the configured MTU: the 16-byte header, then a
 * template set or data sets of the two templates below. Reused for every message; allocates nothing.
 * <pre>
 *  template 256 (IPv4)                          template 257 (IPv6)
 *  sourceIPv4Address          8   4             sourceIPv6Address          27  16
 *  destinationIPv4Address    12   4             destinationIPv6Address     28  16
 *  sourceTransportPort        7   2             ... then the same fields as 256:
 *  destinationTransportPort  11   2
 *  protocolIdentifier         4   1
 *  tcpControlBits             6   2
 *  octetDeltaCount            1   8
 *  packetDeltaCount           2   8
 *  flowStartMilliseconds    152   8
 *  flowEndMilliseconds      153   8
 *  flowEndReason            136   1
 *  vlanId                    58   2
 *  ingressInterface          10   4             (the engine's port id + 1)
 *  egressInterface           14   4             (the engine's port id + 1; 0: dropped)
 *  firewallRuleId    32473/1      4             (enterprise element; 0: no rule decided)
 * </pre>
 * ICMP flows carry their type and code in the port fields, as the engine's flow key does.
 */
final class IpfixMessage {

    static final int VERSION = 10;
    static final int HEADER_BYTES = 16;
    static final int TEMPLATE_IPV4 = 256;
    static final int TEMPLATE_IPV6 = 257;
    /** The documentation Private Enterprise Number (RFC 5612) and our element under it: the firewall rule id. */
    static final int ENTERPRISE = 32473;
    static final int FIREWALL_RULE_ID = 1;
    static final int RECORD_IPV4_BYTES = 62;
    static final int RECORD_IPV6_BYTES = 86;

    private static final int SET_HEADER_BYTES = 4;
    private static final int TEMPLATE_SET_ID = 2;
    /** The fields after the addresses, both templates: element id and length; the last one enterprise-specific. */
    private static final int[][] COMMON_FIELDS = {{7, 2}, {11, 2}, {4, 1}, {6, 2}, {1, 8}, {2, 8}, {152, 8},
        {153, 8}, {136, 1}, {58, 2}, {10, 4}, {14, 4}};

    private final ByteBuffer buffer;
    private int setStart = -1;
    private int setTemplate;
    private int records;

    IpfixMessage(int mtu) {
        buffer = ByteBuffer.allocate(mtu);
    }

    /** Starts a message; {@code sequence} counts the data records sent before it in this observation domain. */
    void begin(long exportSeconds, long sequence, long observationDomainId) {
        buffer.clear();
        buffer.putShort((short) VERSION).putShort((short) 0).putInt((int) exportSeconds).putInt((int) sequence)
                .putInt((int) observationDomainId);
        setStart = -1;
        records = 0;
    }

    /** Writes the template set of both templates. */
    void putTemplates() {
        closeSet();
        int start = buffer.position();
        buffer.putShort((short) TEMPLATE_SET_ID).putShort((short) 0);
        putTemplate(TEMPLATE_IPV4, 8, 12, 4);
        putTemplate(TEMPLATE_IPV6, 27, 28, 16);
        buffer.putShort(start + 2, (short) (buffer.position() - start));
    }

    private void putTemplate(int id, int source, int destination, int addressBytes) {
        buffer.putShort((short) id).putShort((short) (2 + COMMON_FIELDS.length + 1));
        buffer.putShort((short) source).putShort((short) addressBytes);
        buffer.putShort((short) destination).putShort((short) addressBytes);
        for (int[] field : COMMON_FIELDS) {
            buffer.putShort((short) field[0]).putShort((short) field[1]);
        }
        buffer.putShort((short) (0x8000 | FIREWALL_RULE_ID)).putShort((short) 4).putInt(ENTERPRISE);
    }

    /**
     * Appends the record at {@code words[at]} (the {@link FlowRecords} layout); its times are engine-clock
     * milliseconds: {@code engineMillis} on that clock was {@code epochMillis} in Unix time. False when the message
     * has no room.
     */
    boolean putRecord(long[] words, int at, long epochMillis, int engineMillis) {
        long l4 = words[at + 4];
        boolean ipv4 = FlowKey.ipVersion(l4) == 4;
        int template = ipv4 ? TEMPLATE_IPV4 : TEMPLATE_IPV6;
        int bytes = ipv4 ? RECORD_IPV4_BYTES : RECORD_IPV6_BYTES;
        int setHeader = setStart >= 0 && setTemplate == template ? 0 : SET_HEADER_BYTES;
        if (buffer.remaining() < setHeader + bytes) {
            return false;
        }
        if (setHeader != 0) {
            closeSet();
            setStart = buffer.position();
            setTemplate = template;
            buffer.putShort((short) template).putShort((short) 0);
        }
        if (ipv4) {
            buffer.putInt((int) (words[at] >>> 32)).putInt((int) (words[at + 2] >>> 32));
        } else {
            buffer.putLong(words[at]).putLong(words[at + 1]).putLong(words[at + 2]).putLong(words[at + 3]);
        }
        long labels = words[at + 9];
        long seen = words[at + 8];
        int outPort = FlowRecords.outPort(labels); // -1: none, so 0 on the wire
        buffer.putShort((short) FlowKey.srcPort(l4)).putShort((short) FlowKey.dstPort(l4))
                .put((byte) FlowKey.proto(l4)).putShort((short) FlowRecords.tcpFlags(labels))
                .putLong(words[at + 7]).putLong(words[at + 6])
                .putLong(epochMillis + ((int) (seen >>> 32) - engineMillis))
                .putLong(epochMillis + ((int) seen - engineMillis))
                .put((byte) FlowRecords.endReason(labels))
                .putShort((short) (FlowKey.outerTag(words[at + 5]) & 0xFFF))
                .putInt(FlowKey.inPort(l4) + 1).putInt(outPort + 1)
                .putInt(FlowRecords.ruleId(labels));
        records++;
        return true;
    }

    /** Data records written so far. */
    int records() {
        return records;
    }

    /** Whether anything follows the header. */
    boolean isEmpty() {
        return buffer.position() == HEADER_BYTES;
    }

    /** Closes the last set, writes the message length; returns the message, ready to send. */
    ByteBuffer finish() {
        closeSet();
        buffer.putShort(2, (short) buffer.position());
        return buffer.flip();
    }

    private void closeSet() {
        if (setStart >= 0) {
            buffer.putShort(setStart + 2, (short) (buffer.position() - setStart));
            setStart = -1;
        }
    }
}
