package io.edp.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.edp.engine.packet.DropReason;
import io.edp.engine.packet.Frames;
import io.edp.engine.slowpath.FirewallRule;
import io.edp.engine.slowpath.PortRange;
import io.edp.engine.slowpath.Verdict;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * IP fragments take the decision of their datagram's first fragment (the only one with ports), in every mode and
 * both IP versions, so a port-based rule cannot be bypassed by fragmenting.
 */
class FragmentTest {

    /** A UDP datagram of 48 bytes (8 header + 40 payload), cut into three fragments of 16 bytes. */
    private static final int FRAGMENT_BYTES = 16;

    private static TwoVms blockingPort5001(Mode mode) {
        List<FirewallRule> rules = new ArrayList<>();
        rules.add(new FirewallRule(5, "10.0.0.1/32", "10.0.0.2/32", 17, PortRange.ANY, PortRange.of(5001), Set.of(),
                Verdict.DROP));
        rules.add(new FirewallRule(6, "fd00::/64", "fd00:0:0:1::/64", 17, PortRange.ANY, PortRange.of(5001),
                Set.of(), Verdict.DROP));
        rules.addAll(TwoVms.config(mode).build().firewallRules());
        return new TwoVms(TwoVms.config(mode).rules(rules).build());
    }

    private static byte[] datagram(int sport, int dport) {
        byte[] d = Frames.ethernet(0, 0).udp(sport, dport, 40).bytes();
        return java.util.Arrays.copyOfRange(d, 12, d.length);
    }

    /** Fragment {@code n} (0..2) of an IPv4 datagram from A with IP ID {@code id}. */
    private static byte[] ipv4Fragment(byte[] datagram, int id, int n) {
        int offset = n * FRAGMENT_BYTES;
        boolean more = n < 2;
        Frames f = TwoVms.fromA().u16(0x0800).u8(0x45).u8(0).u16(20 + FRAGMENT_BYTES).u16(id)
                .u16((more ? 0x2000 : 0) | offset / 8).u8(64).u8(17).u16(0).u32(TwoVms.A).u32(TwoVms.B);
        for (int i = 0; i < FRAGMENT_BYTES; i++) {
            f.u8(datagram[offset + i]);
        }
        return f.bytes();
    }

    /** Fragment {@code n} (0..2) of an IPv6 datagram from A with fragment identification {@code id}. */
    private static byte[] ipv6Fragment(byte[] datagram, int id, int n) {
        int offset = n * FRAGMENT_BYTES;
        Frames f = TwoVms.fromA().ipv6(44, TwoVms.A_HI, 1, TwoVms.B_HI, 2, 8 + FRAGMENT_BYTES)
                .u8(17).u8(0).u16(offset | (n < 2 ? 1 : 0)).u32(id);
        for (int i = 0; i < FRAGMENT_BYTES; i++) {
            f.u8(datagram[offset + i]);
        }
        return f.bytes();
    }

    /** Fragment {@code n} (0..2) of a datagram with identification {@code id}. */
    interface Fragmenter {
        byte[] fragment(byte[] datagram, int id, int n);
    }

    static Stream<Arguments> modesAndVersions() {
        Fragmenter v4 = FragmentTest::ipv4Fragment;
        Fragmenter v6 = FragmentTest::ipv6Fragment;
        return Stream.of(Mode.values()).flatMap(mode -> Stream.of(Arguments.of(mode, "IPv4", v4),
                Arguments.of(mode, "IPv6", v6)));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("modesAndVersions")
    void noFragmentOfADatagramToABlockedPortPassesAndEveryFragmentOfAnAllowedOneDoes(Mode mode, String version,
            Fragmenter fragmenter) {
        try (TwoVms vms = blockingPort5001(mode)) {
            for (int n = 0; n < 3; n++) {
                vms.send(true, fragmenter.fragment(datagram(7000, 5001), 0x12345, n));
            }
            assertThat(vms.atB()).isZero();
            assertThat(vms.engine.stats().drops()).containsEntry(DropReason.FIREWALL_DROP, 3L);

            for (int n = 0; n < 3; n++) {
                vms.send(true, fragmenter.fragment(datagram(7000, 5002), 0x12346, n));
            }
            assertThat(vms.atB()).isEqualTo(3);
        }
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void laterFragmentsWithoutTheirFirstAreDroppedAndCounted(Mode mode) {
        try (TwoVms vms = blockingPort5001(mode)) {
            vms.send(true, ipv4Fragment(datagram(7000, 5002), 90, 1));
            vms.send(true, ipv4Fragment(datagram(7000, 5002), 90, 2));
            vms.send(true, ipv6Fragment(datagram(7000, 5002), 91, 2));

            assertThat(vms.atB()).isZero();
            assertThat(vms.engine.stats().drops()).containsEntry(DropReason.FRAGMENT_WITHOUT_FIRST, 3L);
        }
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void theFirstFragmentsDecisionTimesOut(Mode mode) {
        try (TwoVms vms = blockingPort5001(mode)) {
            vms.send(true, ipv4Fragment(datagram(7000, 5002), 92, 0));
            vms.send(true, ipv4Fragment(datagram(7000, 5002), 92, 1));
            vms.advance(Duration.ofSeconds(31));
            vms.send(true, ipv4Fragment(datagram(7000, 5002), 92, 2));

            assertThat(vms.atB()).isEqualTo(2);
            assertThat(vms.engine.stats().drops()).containsEntry(DropReason.FRAGMENT_WITHOUT_FIRST, 1L);
        }
    }
}
