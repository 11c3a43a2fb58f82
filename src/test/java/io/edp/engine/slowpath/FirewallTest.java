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

    private static final RuleSet ALLOW_ALL = new RuleSet(List.of());

    private static long find(ConnectionTable ct, long src, long dst, long l4, int flags, int now) {
        return ct.find(src, 0, dst, 0, l4, flags, now, ALLOW_ALL, 1, 64, null);
    }

    private static long insert(ConnectionTable ct, long src, long dst, long l4, int flags, int now) {
        return ct.insert(src, 0, dst, 0, l4, flags, now, 1, 7, FlowKey.inPort(l4), -1, 64, ALLOW_ALL, null);
    }

    @Test
    void theSweepRetiresTimedOutConnectionsABoundedSliceAtATime() {
        ConnectionTable ct = new ConnectionTable(1024);
        for (int port = 0; port < 100; port++) {
            insert(ct, A, B, udp(1000 + port, 53, 0), 0, 0);
        }
        insert(ct, A, B, tcp(40000, 80), FlowKey.TCP_ACK, 0); // picked up established: an hour
        assertThat(ct.sweep(59_999, 1024, ALLOW_ALL, null)).as("nothing is idle for 60 s yet").isZero();
        int first = ct.sweep(60_000, 512, ALLOW_ALL, null);
        int second = ct.sweep(60_000, 512, ALLOW_ALL, null);
        assertThat(first).as("half the slots hold part of them").isBetween(1, 99);
        assertThat(first + second).as("every UDP conversation, in two slices").isEqualTo(100);
        assertThat(ct.size()).isEqualTo(1);
        assertThat(find(ct, A, B, tcp(40000, 80), 0, 60_000)).isNotEqualTo(ConnectionTable.NOT_FOUND);
    }

    @Test
    void theSweepPassesStripesWithoutConnectionsAndStillRetiresEveryTimedOutOne() {
        ConnectionTable ct = new ConnectionTable(1024); // 64 stripes of 16 slots: most stay empty
        for (int port = 0; port < 20; port++) {
            insert(ct, A, B, udp(1000 + port, 53, 0), 0, 0);
        }
        int retired = 0;
        for (int swept = 0; swept < 1024; swept += 7) { // slices that end mid-stripe, empty or not
            retired += ct.sweep(60_000, 7, ALLOW_ALL, null);
        }
        assertThat(retired).as("every conversation, in one pass over the table").isEqualTo(20);
        assertThat(ct.size()).isZero();
    }

    @Test
    void aConnectionIsFoundFromBothDirections() {
        ConnectionTable ct = new ConnectionTable(1024);
        assertThat(find(ct, A, B, udp(1000, 53, 0), 0, 0)).isEqualTo(ConnectionTable.NOT_FOUND);
        long forward = insert(ct, A, B, udp(1000, 53, 0), 0, 0);
        long reply = find(ct, B, A, udp(53, 1000, 2), 0, 20);
        assertThat(find(ct, A, B, udp(1000, 53, 0), 0, 10)).isEqualTo(forward);
        assertThat(forward >>> 32).as("the rule that started it").isEqualTo(7);
        assertThat(reply >>> 32).isEqualTo(7);
        assertThat((int) reply).as("the other direction's reference").isEqualTo((int) forward ^ 1);
        assertThat(ct.size()).isEqualTo(1);
    }

    @Test
    void aRuleChangeRechecksAConnectionInItsInitiatorsDirectionWhicheverWayThePacketGoes() {
        ConnectionTable ct = new ConnectionTable(1024);
        int v1 = ct.policyVersion(List.of());
        ct.insert(A, 0, B, 0, udp(1000, 53, 0), 0, 0, v1, 0, 0, -1, 64, ALLOW_ALL, null);
        List<FirewallRule> allowAtoB = List.of(FirewallRule.of(1, "10.0.0.1/32", "any", 0, Verdict.ALLOW),
                FirewallRule.of(99, "any", "any", 0, Verdict.DROP));
        int v2 = ct.policyVersion(allowAtoB);
        assertThat(ct.policyVersion(allowAtoB)).as("the same rules keep their version").isEqualTo(v2);
        assertThat(v2).isNotEqualTo(v1);
        // the reply comes first: the re-check sees A's packet, which rule 1 allows
        long reply = ct.find(B, 0, A, 0, udp(53, 1000, 2), 0, 10, new RuleSet(allowAtoB), v2, 64, null);
        assertThat(reply >>> 32).isEqualTo(1);

        List<FirewallRule> dropAll = List.of(FirewallRule.of(99, "any", "any", 0, Verdict.DROP));
        int v3 = ct.policyVersion(dropAll);
        assertThat(ct.find(B, 0, A, 0, udp(53, 1000, 2), 0, 20, new RuleSet(dropAll), v3, 64, null))
                .isEqualTo(ConnectionTable.NOT_FOUND);
        assertThat(ct.size()).isZero();
    }

    @Test
    void udpConnectionsTimeOut() {
        ConnectionTable ct = new ConnectionTable(1024);
        insert(ct, A, B, udp(1000, 53, 0), 0, 0);
        assertThat(find(ct, A, B, udp(1000, 53, 0), 0, 59_999)).isNotEqualTo(ConnectionTable.NOT_FOUND);
        assertThat(find(ct, A, B, udp(1000, 53, 0), 0, 59_999 + 60_000)).isEqualTo(ConnectionTable.NOT_FOUND);
    }

    @Test
    void cacheHitsKeepAConnectionAliveWithoutTheSlowPath() {
        ConnectionTable ct = new ConnectionTable(1024);
        long reference = insert(ct, A, B, udp(1000, 53, 0), 0, 0);
        ct.touch((int) reference ^ 1, 50_000);
        assertThat(find(ct, A, B, udp(1000, 53, 0), 0, 109_999)).isNotEqualTo(ConnectionTable.NOT_FOUND);
        assertThat(find(ct, A, B, udp(1000, 53, 0), 0, 109_999 + 60_000)).isEqualTo(ConnectionTable.NOT_FOUND);
    }

    @Test
    void tcpHandshakeAndResetDriveTheConnectionState() {
        ConnectionTable ct = new ConnectionTable(1024);
        insert(ct, A, B, tcp(40000, 80), FlowKey.TCP_SYN, 0);
        // SYN_SENT times out after 30 s unless the handshake completes
        assertThat(find(ct, B, A, tcp(80, 40000), FlowKey.TCP_SYN | FlowKey.TCP_ACK, 1_000))
                .isNotEqualTo(ConnectionTable.NOT_FOUND);
        // established: an hour of idle time is allowed
        assertThat(find(ct, A, B, tcp(40000, 80), FlowKey.TCP_ACK, 1_000 + 600_000))
                .isNotEqualTo(ConnectionTable.NOT_FOUND);
        find(ct, A, B, tcp(40000, 80), FlowKey.TCP_RST, 700_000);
        // closed: a new SYN must meet the rules again
        assertThat(find(ct, A, B, tcp(40000, 80), FlowKey.TCP_SYN, 700_001)).isEqualTo(ConnectionTable.NOT_FOUND);
    }

    @Test
    void aRestartKeepsTheConnectionsRuleUnderTheSamePolicyAndTakesTheNewOneAfterAChange() {
        ConnectionTable ct = new ConnectionTable(1024);
        long first = ct.insert(A, 0, B, 0, tcp(40000, 80), FlowKey.TCP_SYN, 0, 1, 7, 0, -1,
                64, ALLOW_ALL, null);
        find(ct, B, A, tcp(80, 40000), FlowKey.TCP_RST, 1_000);
        // the responder's SYN meets rule 9 in its own direction; the connection stays rule 7's
        long restart = ct.insert(B, 0, A, 0, tcp(80, 40000), FlowKey.TCP_SYN, 2_000, 1, 9, 1, -1,
                64, ALLOW_ALL, null);
        assertThat(restart >>> 32).isEqualTo(7);
        assertThat((int) restart).as("the same connection, the responder's direction").isEqualTo((int) first ^ 1);
        find(ct, A, B, tcp(40000, 80), FlowKey.TCP_RST, 3_000);
        long underNewPolicy = ct.insert(A, 0, B, 0, tcp(40000, 80), FlowKey.TCP_SYN, 4_000, 2, 9, 0, -1,
                64, ALLOW_ALL, null);
        assertThat(underNewPolicy >>> 32).isEqualTo(9);
    }

    @Test
    void onlySynFinAndRstMoveTheStateSoCacheHitsNeverSkipATransition() {
        ConnectionTable ct = new ConnectionTable(1024);
        insert(ct, A, B, tcp(40000, 80), FlowKey.TCP_SYN, 0);
        find(ct, A, B, tcp(40000, 80), FlowKey.TCP_ACK, 1_000);
        // still SYN_SENT (30 s): a plain ACK does not complete the handshake
        assertThat(find(ct, A, B, tcp(40000, 80), FlowKey.TCP_ACK, 31_000)).isEqualTo(ConnectionTable.NOT_FOUND);
    }

    @Test
    void aFullStripeRefusesNewConnections() {
        ConnectionTable ct = new ConnectionTable(256); // 64 stripes of 4 slots
        int refused = 0;
        for (int i = 0; i < 2000; i++) {
            long src = (long) (0x0A000000 + i) << 32;
            refused += insert(ct, src, B, udp(1000, 53, 0), 0, 0) == ConnectionTable.FULL ? 1 : 0;
        }
        assertThat(refused).isPositive();
        assertThat(ct.size()).isLessThanOrEqualTo(256);
    }
}
