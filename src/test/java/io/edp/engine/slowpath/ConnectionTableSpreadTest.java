package io.edp.engine.slowpath;

import static org.assertj.core.api.Assertions.assertThat;

import io.edp.engine.packet.FlowKey;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Found by {@code bench afpacket}: connections that differ only in their ports must spread over the table. */
class ConnectionTableSpreadTest {

    private static final long A = (long) 0x0A000001 << 32;
    private static final long B = (long) 0x0A000101 << 32;

    @Test
    void tenThousandUdpFlowsBetweenTwoHostsAllFitATableOfAQuarterMillion() {
        ConnectionTable ct = new ConnectionTable(262_144);
        int full = 0;
        for (int sourcePort = 1000; sourcePort < 11_000; sourcePort++) {
            long l4 = FlowKey.l4Word(sourcePort, 4000, FlowKey.PROTO_UDP, 4, 1);
            if (ct.insert(A, 0, B, 0, l4, 0, 0, 1, 1, 0, -1, 64, new RuleSet(List.of()), null)
                    == ConnectionTable.FULL) {
                full++;
            }
        }
        assertThat(full).isZero();
    }
}
