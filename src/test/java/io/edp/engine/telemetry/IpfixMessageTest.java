package io.edp.engine.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import io.edp.engine.packet.FlowKey;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The bytes of IPFIX messages as RFC 7011 lays them out: header, template set, data sets, lengths, MTU. */
class IpfixMessageTest {

    @Test
    void theTemplateSetDefinesBothTemplatesWithTheRuleIdAsAnEnterpriseElement() {
        IpfixMessage message = new IpfixMessage(1_500);
        message.begin(1_700_000_000L, 41, 0xFFFF_FFF0L);
        message.putTemplates();
        ByteBuffer b = message.finish();

        assertThat(b.getShort(0)).isEqualTo((short) 10);
        assertThat(b.getShort(2) & 0xFFFF).isEqualTo(b.limit());
        assertThat(b.getInt(4)).isEqualTo(1_700_000_000);
        assertThat(b.getInt(8)).isEqualTo(41);
        assertThat(b.getInt(12) & 0xFFFF_FFFFL).isEqualTo(0xFFFF_FFF0L);
        assertThat(b.getShort(16)).isEqualTo((short) 2);
        assertThat(b.getShort(18) & 0xFFFF).isEqualTo(b.limit() - 16);
        b.position(20);
        assertThat(template(b)).containsExactly("256", "8/4", "12/4", "7/2", "11/2", "4/1", "6/2", "1/8", "2/8",
                "152/8", "153/8", "136/1", "58/2", "10/4", "14/4", "32473:1/4");
        assertThat(template(b)).containsExactly("257", "27/16", "28/16", "7/2", "11/2", "4/1", "6/2", "1/8", "2/8",
                "152/8", "153/8", "136/1", "58/2", "10/4", "14/4", "32473:1/4");
        assertThat(b.remaining()).isZero();
    }

    @Test
    void recordsFillDataSetsPerTemplateUpToTheMtuAndCarryTheirFields() {
        IpfixMessage message = new IpfixMessage(IpfixConfig.MIN_MTU);
        long[] words = new long[FlowRecords.WORDS];
        message.begin(0, 0, 1);
        int written = 0;
        while (put(message, words, written)) {
            written++;
        }
        ByteBuffer b = message.finish();

        assertThat(b.limit()).isLessThanOrEqualTo(IpfixConfig.MIN_MTU);
        assertThat(written).isEqualTo(message.records()).isGreaterThan(4);
        int at = 16;
        List<Integer> sets = new ArrayList<>();
        int records = 0;
        while (at < b.limit()) {
            int id = b.getShort(at) & 0xFFFF;
            int length = b.getShort(at + 2) & 0xFFFF;
            sets.add(id);
            int size = id == 256 ? IpfixMessage.RECORD_IPV4_BYTES : IpfixMessage.RECORD_IPV6_BYTES;
            assertThat((length - 4) % size).isZero();
            records += (length - 4) / size;
            at += length;
        }
        assertThat(at).isEqualTo(b.limit());
        assertThat(records).isEqualTo(written);
        assertThat(sets).startsWith(256, 257, 256); // a new set whenever the template changes

        // the first record: 10.0.0.1:1024 > 10.128.0.1:5001 UDP, 3 packets, 300 bytes, rule 7, port 0 to 2
        b.position(20);
        assertThat(b.getInt()).isEqualTo(0x0A000001);
        assertThat(b.getInt()).isEqualTo(0x0A800001);
        assertThat(b.getShort() & 0xFFFF).isEqualTo(1024);
        assertThat(b.getShort() & 0xFFFF).isEqualTo(5001);
        assertThat(b.get()).isEqualTo((byte) 17);
        assertThat(b.getShort()).isEqualTo((short) 0x12);
        assertThat(b.getLong()).isEqualTo(300);
        assertThat(b.getLong()).isEqualTo(3);
        assertThat(b.getLong()).isEqualTo(1_000_000 + 10);
        assertThat(b.getLong()).isEqualTo(1_000_000 + 30);
        assertThat(b.get()).isEqualTo((byte) FlowEndReason.ACTIVE_TIMEOUT);
        assertThat(b.getShort()).isEqualTo((short) 10);
        assertThat(b.getInt()).as("ingress: port 0 + 1").isEqualTo(1);
        assertThat(b.getInt()).as("egress: port 2 + 1").isEqualTo(3);
        assertThat(b.getInt()).isEqualTo(7);
    }

    /** Writes record {@code n}: IPv4 for even n, IPv6 for odd; false when the message is full. */
    private static boolean put(IpfixMessage message, long[] words, int n) {
        boolean v4 = n % 2 == 0;
        words[0] = v4 ? 0x0A00_0001L << 32 : 0xFD00_0000_0000_0000L;
        words[1] = v4 ? 0 : n;
        words[2] = v4 ? 0x0A80_0001L << 32 : 0xFD01_0000_0000_0000L;
        words[3] = v4 ? 0 : 1;
        words[4] = FlowKey.l4Word(1024 + n, 5001, FlowKey.PROTO_UDP, v4 ? 4 : 6, 0);
        words[5] = FlowKey.l2Word(0x02EDL, FlowKey.VLAN_TAGGED | 10);
        words[6] = 3;
        words[7] = 300;
        words[8] = (110L << 32) | 130;
        words[9] = (7L << 32) | (3L << 16) | (FlowEndReason.ACTIVE_TIMEOUT << 8) | 0x12;
        return message.putRecord(words, 0, 1_000_000, 100);
    }

    private static List<String> template(ByteBuffer b) {
        List<String> fields = new ArrayList<>();
        fields.add(Integer.toString(b.getShort() & 0xFFFF));
        int count = b.getShort();
        for (int i = 0; i < count; i++) {
            int id = b.getShort() & 0xFFFF;
            int length = b.getShort() & 0xFFFF;
            fields.add((id & 0x8000) != 0 ? b.getInt() + ":" + (id & 0x7FFF) + "/" + length : id + "/" + length);
        }
        return fields;
    }
}
