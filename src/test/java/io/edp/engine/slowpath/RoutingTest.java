package io.edp.engine.slowpath;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class RoutingTest {

    private static long v4(String address) {
        return Cidr.parse(address, "test").hi();
    }

    @Test
    void theLongestMatchingIpv4PrefixWins() {
        PrefixTable table = new PrefixTable(List.of(Cidr.parse("0.0.0.0/0", "r"), Cidr.parse("10.0.0.0/8", "r"),
                Cidr.parse("10.1.0.0/16", "r"), Cidr.parse("10.1.2.0/24", "r"), Cidr.parse("10.1.2.3/32", "r")));
        assertThat(table.lookup(v4("10.1.2.3"), 0)).isEqualTo(4);
        assertThat(table.lookup(v4("10.1.2.4"), 0)).isEqualTo(3);
        assertThat(table.lookup(v4("10.1.3.4"), 0)).isEqualTo(2);
        assertThat(table.lookup(v4("10.2.3.4"), 0)).isEqualTo(1);
        assertThat(table.lookup(v4("192.168.1.1"), 0)).isEqualTo(0);
    }

    @Test
    void ipv6PrefixesMatchAcrossBothHalves() {
        Cidr wide = Cidr.parse("fd01::/16", "r");
        Cidr narrow = Cidr.parse("fd01::1:0/112", "r");
        PrefixTable table = new PrefixTable(List.of(wide, narrow));
        Cidr host = Cidr.parse("fd01::1:5", "h");
        assertThat(table.lookup(host.hi(), host.lo())).isEqualTo(1);
        Cidr other = Cidr.parse("fd01::2:5", "h");
        assertThat(table.lookup(other.hi(), other.lo())).isEqualTo(0);
        Cidr outside = Cidr.parse("fd02::1", "h");
        assertThat(table.lookup(outside.hi(), outside.lo())).isEqualTo(-1);
    }

    @Test
    void aThousandRoutesAllResolve() {
        List<Cidr> routes = new java.util.ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            routes.add(Cidr.parse("10." + (128 + i / 256) + "." + (i % 256) + ".0/24", "r"));
        }
        PrefixTable table = new PrefixTable(routes);
        for (int i = 0; i < 1000; i++) {
            assertThat(table.lookup(v4("10." + (128 + i / 256) + "." + (i % 256) + ".77"), 0)).isEqualTo(i);
        }
    }

    @Test
    void badPrefixesNameTheField() {
        assertThatThrownBy(() -> Cidr.parse("10.0.0.0/33", "routes[0].prefix"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("routes[0].prefix");
        assertThatThrownBy(() -> Cidr.parse("example.com", "x")).hasMessageContaining("not an IP address");
        assertThatThrownBy(() -> new Route("10.0.0.0/8", "zz", 1, 0)).hasMessageContaining("nextHopMac");
    }
}
