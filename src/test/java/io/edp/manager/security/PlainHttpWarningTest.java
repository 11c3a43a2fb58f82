package io.edp.manager.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;

import org.junit.jupiter.api.Test;

class PlainHttpWarningTest {

    @Test
    void plainHttpOnEveryInterfaceOrANetworkAddressIsWarnedAbout() throws Exception {
        assertThat(PlainHttpWarning.warning(false, null, 8080)).hasValueSatisfying(warning -> assertThat(warning)
                .contains("plain HTTP on every interface, port 8080").contains("server.ssl.bundle"));
        assertThat(PlainHttpWarning.warning(false, InetAddress.getByName("0.0.0.0"), 8080)).isPresent();
        assertThat(PlainHttpWarning.warning(false, InetAddress.getByName("192.0.2.10"), 8080))
                .hasValueSatisfying(warning -> assertThat(warning).contains("192.0.2.10"));
    }

    @Test
    void tlsOrLoopbackOnlyIsNot() throws Exception {
        assertThat(PlainHttpWarning.warning(true, null, 8443)).isEmpty();
        assertThat(PlainHttpWarning.warning(false, InetAddress.getByName("127.0.0.1"), 8080)).isEmpty();
        assertThat(PlainHttpWarning.warning(false, InetAddress.getByName("::1"), 8080)).isEmpty();
    }
}
