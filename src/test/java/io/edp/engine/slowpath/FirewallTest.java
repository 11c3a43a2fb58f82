package io.edp.engine.slowpath;

import static org.assertj.core.api.Assertions.assertThat;

import io.edp.engine.packet.FlowKey;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class FirewallTest {

    private static final long A = (long) 0x0A000001 << 32;
    private static final long B = (long) 0x0A800001 << 32;

    private static long udp(int sport, int dport, int inPort) {
        return FlowKey.l4Word(sport, dport, FlowKey.PROTO_UDP, 4, inPort);
    }

    private static long tcp(int sport, int dport) {
        return FlowKey.l4Word(sport, dport, FlowKey.PROTO_TCP, 4, 0);
    }

    @Test
    void theFirstMatchingRuleDecides() {
        RuleSet rules = new RuleSet(List.of(
                new FirewallRule(1, "10.0.0.0/8", "10.128.0.0/9", 17, PortRange.ANY, new PortRange(5000, 5010),
                        Set.of(), Verdict.DROP),
                FirewallRule.of(2, "10.0.0.0/8", "any", 0, Verdict.ALLOW),
                FirewallRule.of(3, "any", "any", 0, Verdict.REJECT)));
        assertThat(rules.match(A, 0, B, 0, udp(1000, 5001, 0), -1)).isZero();
        assertThat(rules.match(A, 0, B, 0, udp(1000, 6000, 0), -1)).isEqualTo(1);
        assertThat(rules.match(B, 0, A, 0, udp(1000, 5001, 0), -1)).isEqualTo(1);
        assertThat(rules.match((long) 0xC0A80001 << 32, 0, A, 0, udp(1, 2, 0), -1)).isEqualTo(2);
        assertThat(rules.verdict(2)).isEqualTo(Verdict.REJECT);
    }

    @Test
    void appliedToLimitsARuleToItsPortsInEitherDirection() {
        RuleSet rules = new RuleSet(List.of(new FirewallRule(9, "any", "any", 0, null, null, Set.of(3), Verdict.DROP)));
        assertThat(rules.match(A, 0, B, 0, udp(1, 2, 0), 1)).isEqualTo(-1);
        assertThat(rules.match(A, 0, B, 0, udp(1, 2, 3), 1)).isZero();
        assertThat(rules.match(A, 0, B, 0, udp(1, 2, 0), 3)).isZero();
    }

    @Test
    void ipv4RulesDoNotMatchIpv6Packets() {
        RuleSet rules = new RuleSet(List.of(FirewallRule.of(1, "0.0.0.0/0", "any", 0, Verdict.DROP)));
        assertThat(rules.match(0, 1, 0, 2, FlowKey.l4Word(1, 2, 17, 6, 0), -1)).isEqualTo(-1);
        assertThat(rules.match(A, 0, B, 0, udp(1, 2, 0), -1)).isZero();
    }

    @Test
    void aConnectionIsFoundFromBothDirections() {
        ConnectionTable ct = new ConnectionTable(1024);
        assertThat(ct.find(A, 0, B, 0, udp(1000, 53, 0), 0, 0, 1)).isEqualTo(ConnectionTable.NOT_FOUND);
        long id = ct.insert(A, 0, B, 0, udp(1000, 53, 0), 0, 0, 1, 7);
        long forward = ct.find(A, 0, B, 0, udp(1000, 53, 0), 0, 10, 1);
        long reply = ct.find(B, 0, A, 0, udp(53, 1000, 2), 0, 20, 1);
        assertThat(forward).isEqualTo(reply).isEqualTo((7L << 32) | id);
        assertThat(ct.size()).isEqualTo(1);
    }

    @Test
    void aNewPolicyGenerationSendsConnectionsBackToTheRules() {
        ConnectionTable ct = new ConnectionTable(1024);
        ct.insert(A, 0, B, 0, udp(1000, 53, 0), 0, 0, 1, 7);
        assertThat(ct.find(A, 0, B, 0, udp(1000, 53, 0), 0, 10, 2)).isEqualTo(ConnectionTable.NOT_FOUND);
        ct.remove(A, 0, B, 0, udp(1000, 53, 0), 10);
        assertThat(ct.size()).isZero();
        assertThat(ct.find(A, 0, B, 0, udp(1000, 53, 0), 0, 10, 1)).isEqualTo(ConnectionTable.NOT_FOUND);
    }

    @Test
    void udpConnectionsTimeOut() {
        ConnectionTable ct = new ConnectionTable(1024);
        ct.insert(A, 0, B, 0, udp(1000, 53, 0), 0, 0, 1, 0);
        assertThat(ct.find(A, 0, B, 0, udp(1000, 53, 0), 0, 59_999, 1)).isNotEqualTo(ConnectionTable.NOT_FOUND);
        assertThat(ct.find(A, 0, B, 0, udp(1000, 53, 0), 0, 59_999 + 60_000, 1)).isEqualTo(ConnectionTable.NOT_FOUND);
    }

    @Test
    void tcpHandshakeAndResetDriveTheConnectionState() {
        ConnectionTable ct = new ConnectionTable(1024);
        ct.insert(A, 0, B, 0, tcp(40000, 80), FlowKey.TCP_SYN, 0, 1, 0);
        // SYN_SENT times out after 30 s unless the handshake completes
        assertThat(ct.find(B, 0, A, 0, tcp(80, 40000), FlowKey.TCP_SYN | FlowKey.TCP_ACK, 1_000, 1))
                .isNotEqualTo(ConnectionTable.NOT_FOUND);
        // established: an hour of idle time is allowed
        assertThat(ct.find(A, 0, B, 0, tcp(40000, 80), FlowKey.TCP_ACK, 1_000 + 600_000, 1))
                .isNotEqualTo(ConnectionTable.NOT_FOUND);
        ct.find(A, 0, B, 0, tcp(40000, 80), FlowKey.TCP_RST, 700_000, 1);
        // closed: a new SYN must meet the rules again
        assertThat(ct.find(A, 0, B, 0, tcp(40000, 80), FlowKey.TCP_SYN, 700_001, 1))
                .isEqualTo(ConnectionTable.NOT_FOUND);
    }

    @Test
    void aFullStripeRefusesNewConnections() {
        ConnectionTable ct = new ConnectionTable(256); // 64 stripes of 4 slots
        int refused = 0;
        for (int i = 0; i < 2000; i++) {
            long src = (long) (0x0A000000 + i) << 32;
            refused += ct.insert(src, 0, B, 0, udp(1000, 53, 0), 0, 0, 1, 0) == ConnectionTable.FULL ? 1 : 0;
        }
        assertThat(refused).isPositive();
        assertThat(ct.size()).isLessThanOrEqualTo(256);
    }
}
