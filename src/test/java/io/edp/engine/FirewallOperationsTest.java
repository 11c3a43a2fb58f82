package io.edp.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.edp.engine.nic.NicDrivers;
import io.edp.engine.packet.DropReason;
import io.edp.engine.packet.FlowKey;
import io.edp.engine.slowpath.Cidr;
import io.edp.engine.slowpath.ConnectionEntry;
import io.edp.engine.slowpath.ConnectionFilter;
import io.edp.engine.slowpath.ConnectionTable;
import io.edp.engine.slowpath.FirewallRule;
import io.edp.engine.slowpath.Verdict;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Firewall operations on real traffic ({@link TwoVms}: rule 1 allows A → B, rule 99 drops the rest, replies pass
 * by conntrack): per-rule counters of fast-path hits and slow-path packets alike, kept by rule id across pushes and
 * rebuilds; connections listed with filters and cleared one by one or all, after which cached replies are dropped
 * exactly as the slow path drops them.
 */
class FirewallOperationsTest {

    private static final byte[] REQUEST = TwoVms.udp(true, 40000, 53);
    private static final byte[] REPLY = TwoVms.udp(false, 40000, 53);

    @ParameterizedTest
    @EnumSource(Mode.class)
    void ruleCountersCountEveryPacketOnBothPathsExactly(Mode mode) {
        try (TwoVms vms = new TwoVms(mode)) {
            for (int i = 0; i < 10; i++) {
                vms.send(true, REQUEST);
            }
            for (int i = 0; i < 5; i++) {
                vms.send(false, REPLY);
            }
            for (int i = 0; i < 3; i++) {
                vms.send(false, TwoVms.udp(false, 41000, 53)); // no connection: rule 99 drops it
            }

            assertThat(vms.engine.ruleStats()).containsExactly(
                    new RuleStats(1, 15, 10L * REQUEST.length + 5L * REPLY.length, 1),
                    new RuleStats(2, 0, 0, 0),
                    new RuleStats(99, 3, 3L * REPLY.length, 0));
            long hits = vms.engine.stats().flowCache().hits();
            assertThat(hits).as("fast-path hits among them").isEqualTo(mode == Mode.LEGACY ? 0 : 13);
        }
    }

    @Test
    void countersFollowTheRuleIdAcrossPushesAndRebuilds() {
        try (TwoVms vms = new TwoVms(Mode.EDP_STANDARD)) {
            vms.send(true, REQUEST);
            vms.send(false, REPLY);
            vms.send(false, TwoVms.udp(false, 41000, 53));

            vms.engine.apply(vms.engine.config().toBuilder().rules(List.of(
                    FirewallRule.of(50, "192.168.0.0/16", "any", 0, Verdict.DROP),
                    FirewallRule.of(1, "10.0.0.1/32", "10.0.0.2/32", 0, Verdict.ALLOW))).build());
            vms.send(true, REQUEST);
            assertThat(vms.engine.ruleStats()).as("rule 1 kept (moved), 99 and 2 removed, 50 new").containsExactly(
                    new RuleStats(1, 3, 2L * REQUEST.length + REPLY.length, 1), new RuleStats(50, 0, 0, 0));

            Engine old = vms.engine;
            old.close();
            vms.engine = Engine.start(old.config(), NicDrivers.withLoopback(), vms.clock, old);
            assertThat(vms.engine.ruleStats()).as("a rebuilt engine goes on from the old counts").containsExactly(
                    new RuleStats(1, 3, 2L * REQUEST.length + REPLY.length, 1), new RuleStats(50, 0, 0, 0));
        }
    }

    @Test
    void connectionsAreListedWithTheirStateAndSelectedByAddressPortProtocolAndState() {
        try (TwoVms vms = new TwoVms(Mode.EDP_STANDARD)) {
            vms.send(true, REQUEST);
            vms.send(true, TwoVms.tcp(true, 40001, 80, FlowKey.TCP_SYN));
            vms.send(true, TwoVms.tcp(true, 40002, 80, FlowKey.TCP_SYN));
            vms.send(false, TwoVms.tcp(false, 40002, 80, FlowKey.TCP_SYN | FlowKey.TCP_ACK));

            List<ConnectionEntry> all = vms.engine.listConnections(ConnectionFilter.ALL);
            assertThat(all).extracting(ConnectionEntry::id).containsExactlyInAnyOrder(
                    "17-10.0.0.1-40000-10.0.0.2-53", "6-10.0.0.1-40001-10.0.0.2-80", "6-10.0.0.1-40002-10.0.0.2-80");
            ConnectionEntry udp = all.stream().filter(c -> c.protocol() == 17).findFirst().orElseThrow();
            assertThat(udp.state()).isEqualTo(ConnectionTable.ACTIVE);
            assertThat(udp.ruleId()).isEqualTo(1);
            assertThat(udp.ingressPort()).isEqualTo(TwoVms.VM_PORT);
            assertThat(udp.expiresInMillis()).isEqualTo(60_000);

            assertThat(ids(vms, new ConnectionFilter(null, 80, null, -1, -1, 0))).hasSize(2);
            assertThat(ids(vms, new ConnectionFilter(null, -1, null, -1, 17, 0))).containsExactly(udp.id());
            assertThat(ids(vms, new ConnectionFilter(null, -1, null, -1, -1, ConnectionTable.ESTABLISHED)))
                    .containsExactly("6-10.0.0.1-40002-10.0.0.2-80");
            assertThat(ids(vms, new ConnectionFilter(Cidr.parse("10.0.0.2", "a"), 53, null, -1, -1, 0)))
                    .containsExactly(udp.id());
            assertThat(ids(vms, new ConnectionFilter(Cidr.parse("10.0.1.0/24", "a"), -1, null, -1, -1, 0)))
                    .isEmpty();
            assertThat(ids(vms, new ConnectionFilter(Cidr.parse("::/0", "a"), -1, null, -1, -1, 0)))
                    .as("an IPv6 prefix selects no IPv4 connection").isEmpty();
            assertThat(ids(vms, ConnectionEntry.filterFor("17-10.0.0.2-53-10.0.0.1-40000")))
                    .as("either direction's tuple names the connection").containsExactly(udp.id());
            assertThat(vms.engine.connectionStats().entries()).isEqualTo(3);
            assertThat(vms.engine.connectionStats().states())
                    .containsEntry("ACTIVE", 1L).containsEntry("SYN_SENT", 1L).containsEntry("ESTABLISHED", 1L);
        }
    }

    /** A reply the cache passed as part of its connection is dropped once the connection is cleared, in every mode. */
    @ParameterizedTest
    @EnumSource(Mode.class)
    void aClearedConnectionNoLongerLetsItsCachedRepliesThrough(Mode mode) {
        try (TwoVms vms = new TwoVms(mode)) {
            byte[] otherReply = TwoVms.udp(false, 40010, 53);
            vms.send(true, REQUEST);
            vms.send(true, TwoVms.udp(true, 40010, 53));
            vms.send(false, REPLY);
            vms.send(false, REPLY); // a fast-path hit in the EDP modes
            vms.send(false, otherReply);
            assertThat(vms.atA()).isEqualTo(3);

            assertThat(vms.engine.clearConnections(ConnectionEntry.filterFor("17-10.0.0.1-40000-10.0.0.2-53")))
                    .isEqualTo(1);
            vms.send(false, REPLY);
            vms.send(false, otherReply);

            assertThat(vms.atA()).as("the other connection's reply still passes").isEqualTo(4);
            assertThat(vms.engine.stats().drops()).containsEntry(DropReason.FIREWALL_DROP, 1L);
            assertThat(vms.engine.listConnections(ConnectionFilter.ALL)).extracting(ConnectionEntry::sourcePort)
                    .containsExactly(40010);

            vms.send(true, REQUEST); // the rules allow the request: it starts the connection again
            vms.send(false, REPLY);
            assertThat(vms.atA()).isEqualTo(5);
        }
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void clearingAllConnectionsDropsEveryReplyUntilRequestsOpenThemAgain(Mode mode) {
        try (TwoVms vms = new TwoVms(mode)) {
            for (int port = 40000; port < 40008; port++) {
                vms.send(true, TwoVms.udp(true, port, 53));
                vms.send(false, TwoVms.udp(false, port, 53));
                vms.send(false, TwoVms.udp(false, port, 53));
            }
            assertThat(vms.atA()).isEqualTo(16);

            assertThat(vms.engine.clearConnections(ConnectionFilter.ALL)).isEqualTo(8);
            for (int port = 40000; port < 40008; port++) {
                vms.send(false, TwoVms.udp(false, port, 53));
            }

            assertThat(vms.atA()).isEqualTo(16);
            assertThat(vms.engine.stats().drops()).containsEntry(DropReason.FIREWALL_DROP, 8L);
            assertThat(vms.engine.connectionStats().entries()).isZero();
            assertThat(vms.engine.clearConnections(ConnectionFilter.ALL)).isZero();
        }
    }

    private static List<String> ids(TwoVms vms, ConnectionFilter filter) {
        return vms.engine.listConnections(filter).stream().map(ConnectionEntry::id).toList();
    }
}
