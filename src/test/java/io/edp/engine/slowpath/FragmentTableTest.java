package io.edp.engine.slowpath;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class FragmentTableTest {

    private static final long A = (long) 0x0A000001 << 32;
    private static final long B = (long) 0x0A000002 << 32;

    @Test
    void aDatagramsDecisionIsFoundUntilItTimesOut() {
        FragmentTable table = new FragmentTable();
        long udp7 = FragmentTable.datagram(7, 17, 4);
        table.record(A, 0, B, 0, udp7, 1234, 0);

        assertThat(table.decision(A, 0, B, 0, udp7, FragmentTable.TIMEOUT_MILLIS - 1)).isEqualTo(1234);
        assertThat(table.decision(A, 0, B, 0, udp7, FragmentTable.TIMEOUT_MILLIS)).isEqualTo(FragmentTable.MISSING);
        assertThat(table.decision(B, 0, A, 0, udp7, 0)).isEqualTo(FragmentTable.MISSING);
        assertThat(table.decision(A, 0, B, 0, FragmentTable.datagram(7, 6, 4), 0)).isEqualTo(FragmentTable.MISSING);
    }

    @Test
    void ipv6DatagramsAreKnownWithoutTheirTransportProtocol() {
        assertThat(FragmentTable.datagram(9, 17, 6)).isEqualTo(FragmentTable.datagram(9, 60, 6));
        assertThat(FragmentTable.datagram(9, 17, 4)).isNotEqualTo(FragmentTable.datagram(9, 6, 4));
    }

    @Test
    void theTableIsBoundedAndKeepsTheNewestDatagrams() {
        FragmentTable table = new FragmentTable();
        int datagrams = 4 * FragmentTable.CAPACITY;
        for (int id = 0; id < datagrams; id++) {
            table.record(A, 0, B, 0, FragmentTable.datagram(id, 17, 4), id, id);
        }
        int known = 0;
        for (int id = 0; id < datagrams; id++) {
            known += table.decision(A, 0, B, 0, FragmentTable.datagram(id, 17, 4), datagrams) == id ? 1 : 0;
        }
        assertThat(known).isLessThanOrEqualTo(FragmentTable.CAPACITY).isGreaterThan(FragmentTable.CAPACITY / 2);
        assertThat(table.decision(A, 0, B, 0, FragmentTable.datagram(datagrams - 1, 17, 4), datagrams))
                .isEqualTo(datagrams - 1);
    }
}
