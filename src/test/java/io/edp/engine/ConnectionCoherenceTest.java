package io.edp.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.edp.engine.packet.DropReason;
import io.edp.engine.packet.FlowKey;
import io.edp.engine.slowpath.FirewallRule;
import io.edp.engine.slowpath.Verdict;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Connection tracking stays coherent with the flow cache: replies pass exactly as long as their connection lives,
 * whatever is cached, pushed or rebuilt (see {@link TwoVms} for the firewall: replies pass only by conntrack).
 */
class ConnectionCoherenceTest {

    private static final int ACK = FlowKey.TCP_ACK;

    @ParameterizedTest
    @EnumSource(Mode.class)
    void aConfigPushThatLeavesTheRulesAloneKeepsEstablishedConnections(Mode mode) {
        try (TwoVms vms = new TwoVms(mode)) {
            establishUdpAndTcp(vms);

            vms.engine.apply(vms.engine.config().toBuilder()
                    .tlb(vms.engine.config().tlb().withThreshold(0.5)).build());
            assertRepliesPassFirst(vms, 21);
        }
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void anUnrelatedRuleRechecksConnectionsInTheirInitiatorsDirectionAndKeepsThem(Mode mode) {
        try (TwoVms vms = new TwoVms(mode)) {
            establishUdpAndTcp(vms);

            vms.engine.apply(vms.engine.config().toBuilder()
                    .rules(java.util.List.of(
                            FirewallRule.of(1, "10.0.0.1/32", "10.0.0.2/32", 0, Verdict.ALLOW),
                            FirewallRule.of(50, "192.168.0.0/16", "any", 0, Verdict.DROP),
                            FirewallRule.of(99, "any", "any", 0, Verdict.DROP)))
                    .build());
            assertRepliesPassFirst(vms, 21);
            assertThat(vms.engine.stats().drops()).doesNotContainKey(DropReason.FIREWALL_DROP);
        }
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void aRuleThatNoLongerAllowsTheInitiatorCutsTheConnectionAtItsReply(Mode mode) {
        try (TwoVms vms = new TwoVms(mode)) {
            establishUdpAndTcp(vms);

            vms.engine.apply(vms.engine.config().toBuilder()
                    .rules(java.util.List.of(FirewallRule.of(99, "any", "any", 0, Verdict.DROP))).build());
            long atA = vms.atA();
            vms.send(false, TwoVms.udp(false, 40000, 53));
            vms.send(true, TwoVms.udp(true, 40000, 53));
            vms.send(false, TwoVms.udp(false, 40000, 53));

            assertThat(vms.atA()).isEqualTo(atA);
            assertThat(vms.engine.stats().drops()).containsEntry(DropReason.FIREWALL_DROP, 3L);
        }
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void aRebuiltEngineKeepsTheConnectionTable(Mode mode) {
        try (TwoVms vms = new TwoVms(mode)) {
            establishUdpAndTcp(vms);

            vms.rebuild(vms.engine.config().toBuilder().workers(0, 2).build());
            long atA = vms.atA();
            vms.send(false, TwoVms.udp(false, 40000, 53));
            vms.send(false, TwoVms.tcp(false, 40001, 80, ACK));

            assertThat(vms.atA()).isEqualTo(atA + 2);
        }
    }

    /**
     * 64 UDP conversations, one packet each way per second: fast-path hits keep their connections alive (60 s of
     * idle time) however long the flow-cache entries (90–150 s) live.
     */
    @ParameterizedTest
    @EnumSource(Mode.class)
    void fastPathHitsKeepTheirConnectionsAlive(Mode mode) {
        int conversations = 64;
        int seconds = 200;
        try (TwoVms vms = new TwoVms(mode)) {
            byte[][] requests = new byte[conversations][];
            byte[][] replies = new byte[conversations][];
            for (int i = 0; i < conversations; i++) {
                requests[i] = TwoVms.udp(true, 20_000 + i, 5001);
                replies[i] = TwoVms.udp(false, 20_000 + i, 5001);
            }
            for (int s = 0; s < seconds; s++) {
                for (int i = 0; i < conversations; i++) {
                    vms.inject(TwoVms.VM_PORT, requests[i]);
                }
                vms.settle();
                for (int i = 0; i < conversations; i++) {
                    vms.inject(TwoVms.UPLINK, replies[i]);
                }
                vms.settle();
                vms.advance(Duration.ofSeconds(1));
            }

            assertThat(vms.atB()).isEqualTo((long) conversations * seconds);
            assertThat(vms.atA()).as("replies delivered").isEqualTo((long) conversations * seconds);
            if (mode != Mode.LEGACY) {
                assertThat(vms.engine.stats().flowCache().hits()).isGreaterThan((long) conversations * seconds);
            }
        }
    }

    @Test
    void aReplyWhoseEntryWasIdleLongerThanItsConnectionIsDroppedAsWithoutTheCache() {
        try (TwoVms vms = new TwoVms(Mode.EDP_STANDARD)) {
            vms.send(true, TwoVms.udp(true, 30000, 53));
            vms.send(false, TwoVms.udp(false, 30000, 53));
            vms.send(false, TwoVms.udp(false, 30000, 53));
            vms.advance(Duration.ofSeconds(61));
            vms.send(false, TwoVms.udp(false, 30000, 53));

            assertThat(vms.atA()).isEqualTo(2);
        }
    }

    /**
     * The last hit before a flow goes quiet reaches its connection to the millisecond, however close it came after
     * the one before: the reply one millisecond before the connection's timeout (60 s, counted from that hit)
     * still passes, as without the cache.
     */
    @ParameterizedTest
    @EnumSource(Mode.class)
    void theLastHitKeepsItsConnectionToTheMillisecond(Mode mode) {
        try (TwoVms vms = new TwoVms(mode)) {
            vms.send(true, TwoVms.udp(true, 30000, 53));
            for (int i = 0; i < 10; i++) {
                vms.advance(Duration.ofMillis(100));
                vms.send(true, TwoVms.udp(true, 30000, 53));
            }
            vms.advance(Duration.ofMillis(59_999));
            vms.send(false, TwoVms.udp(false, 30000, 53));

            assertThat(vms.atA()).as("the reply passes").isEqualTo(1);
        }
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void aReplyDroppedBeforeItsConnectionExistedPassesOnceItDoes(Mode mode) {
        try (TwoVms vms = new TwoVms(mode)) {
            vms.send(false, TwoVms.udp(false, 30000, 53));
            vms.send(false, TwoVms.udp(false, 30000, 53));
            vms.send(true, TwoVms.udp(true, 30000, 53));
            vms.send(false, TwoVms.udp(false, 30000, 53));

            assertThat(vms.atA()).isEqualTo(1);
        }
    }

    /**
     * Random packets both ways over a few conversations (UDP, and TCP with every flag mix the state machine knows),
     * clock advances across every timeout and the cache's idle limit, and rule changes: EDP_STANDARD delivers
     * exactly what LEGACY delivers, packet by packet.
     */
    @Test
    void theCacheChangesNothingButSpeedPacketByPacket() {
        int[] tcpFlags = {ACK, FlowKey.TCP_SYN, FlowKey.TCP_SYN | ACK, FlowKey.TCP_FIN | ACK, FlowKey.TCP_RST, 0};
        long[] advances = {0, 1, 500, 5_000, 19_999, 20_000, 29_999, 45_000, 60_000, 61_000, 3_600_000};
        java.util.SplittableRandom random = new java.util.SplittableRandom(20261202);
        try (TwoVms legacy = new TwoVms(Mode.LEGACY); TwoVms edp = new TwoVms(Mode.EDP_STANDARD)) {
            for (int step = 0; step < 3_000; step++) {
                int kind = random.nextInt(20);
                if (kind == 0) {
                    Duration by = Duration.ofMillis(advances[random.nextInt(advances.length)]);
                    legacy.advance(by);
                    edp.advance(by);
                } else if (kind == 1) {
                    EngineConfig.Builder rules = TwoVms.config(Mode.LEGACY);
                    if (random.nextBoolean()) {
                        rules.rules(java.util.List.of(FirewallRule.of(99, "any", "any", 0, Verdict.DROP)));
                    }
                    legacy.engine.apply(rules.mode(Mode.LEGACY).build());
                    edp.engine.apply(rules.mode(Mode.EDP_STANDARD).build());
                } else {
                    boolean fromA = random.nextInt(3) != 0;
                    int conversation = random.nextInt(4);
                    byte[] frame = random.nextBoolean()
                            ? TwoVms.udp(fromA, 41000 + conversation, 53)
                            : TwoVms.tcp(fromA, 42000 + conversation, 80, tcpFlags[random.nextInt(tcpFlags.length)]);
                    legacy.send(fromA, frame);
                    edp.send(fromA, frame);
                    assertThat(edp.atA()).as("replies delivered by step %d", step).isEqualTo(legacy.atA());
                    assertThat(edp.atB()).as("requests delivered by step %d", step).isEqualTo(legacy.atB());
                }
            }
            assertThat(edp.engine.stats().flowCache().hits()).isPositive();
            assertThat(legacy.atA()).as("some replies passed").isPositive();
        }
    }

    private static void establishUdpAndTcp(TwoVms vms) {
        vms.send(true, TwoVms.udp(true, 40000, 53));
        vms.send(false, TwoVms.udp(false, 40000, 53));
        vms.send(true, TwoVms.tcp(true, 40001, 80, FlowKey.TCP_SYN));
        vms.send(false, TwoVms.tcp(false, 40001, 80, FlowKey.TCP_SYN | ACK));
        vms.send(true, TwoVms.tcp(true, 40001, 80, ACK));
        for (int i = 0; i < 3; i++) {
            vms.send(true, TwoVms.udp(true, 40000, 53));
            vms.send(false, TwoVms.udp(false, 40000, 53));
            vms.send(true, TwoVms.tcp(true, 40001, 80, ACK));
            vms.send(false, TwoVms.tcp(false, 40001, 80, ACK));
        }
        assertThat(vms.atB()).isEqualTo(9);
        assertThat(vms.atA()).isEqualTo(8);
        vms.advance(Duration.ofSeconds(1));
    }

    /** After a push, the replies come first: each passes, as do the requests after them. */
    private static void assertRepliesPassFirst(TwoVms vms, int count) {
        long atA = vms.atA();
        long atB = vms.atB();
        for (int i = 0; i < count; i++) {
            vms.send(false, TwoVms.udp(false, 40000, 53));
            vms.send(false, TwoVms.tcp(false, 40001, 80, ACK));
            vms.advance(Duration.ofSeconds(5));
        }
        vms.send(true, TwoVms.udp(true, 40000, 53));
        vms.send(true, TwoVms.tcp(true, 40001, 80, ACK));

        assertThat(vms.atA()).as("replies delivered").isEqualTo(atA + 2L * count);
        assertThat(vms.atB()).isEqualTo(atB + 2);
    }
}
