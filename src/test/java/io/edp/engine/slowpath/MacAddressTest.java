package io.edp.engine.slowpath;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class MacAddressTest {

    @Test
    void parsesColonOrDashSeparatedPairsOfEitherCase() {
        assertThat(MacAddress.parse("02:00:5e:Af:0b:FF", "mac")).isEqualTo(0x02005EAF0BFFL);
        assertThat(MacAddress.parse("02-00-5E-af:0b-ff", "mac")).isEqualTo(0x02005EAF0BFFL);
        assertThat(MacAddress.parse("ff:ff:ff:ff:ff:ff", "mac")).isEqualTo(MacAddress.BROADCAST);
    }

    @Test
    void formatsWhatItParses() {
        assertThat(MacAddress.format(MacAddress.parse("02:00:5E:AF:0B:FF", "mac"))).isEqualTo("02:00:5e:af:0b:ff");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "02:00:5e:af:0b", "02:00:5e:af:0b:ff:", "02:00:5e:af:0b:f", "020:0:5e:af:0b:ff",
            "02.00.5e.af.0b.ff", "02:00:5g:af:0b:ff", "02:00:5e:af:0b:\uFF11\uFF11", " 2:00:5e:af:0b:ff"})
    void refusesAnythingElseNamingTheField(String text) {
        assertThatThrownBy(() -> MacAddress.parse(text, "sourceMac"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("sourceMac: not a MAC address");
    }

    @Test
    void refusesNull() {
        assertThatThrownBy(() -> MacAddress.parse(null, "mac")).isInstanceOf(IllegalArgumentException.class);
    }
}
