package io.edp.engine.nic.steering;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Microsoft's "Verifying the RSS Hash Calculation" suite: the default key, IPv4 and IPv6 inputs, hashed
 * with ports (TCP) and without (IP only). The same values are in Intel's 82599 datasheet and DPDK's tests.
 */
class ToeplitzHashTest {

    private final ToeplitzHash microsoft = new ToeplitzHash(ToeplitzHash.MICROSOFT_KEY);

    @ParameterizedTest(name = "{0}:{1} -> {2}:{3}")
    @CsvSource({
            "66.9.149.187,   2794,  161.142.100.80, 1766,  323e8fc2, 51ccc178",
            "199.92.111.2,   14230, 65.69.140.83,   4739,  d718262a, c626b0ea",
            "24.19.198.95,   12898, 12.22.207.184,  38024, d2d0a5de, 5c2b394a",
            "38.27.205.30,   48228, 209.142.163.6,  2217,  82989176, afc7327f",
            "153.39.163.191, 44251, 202.188.127.2,  1303,  5d1809c5, 10e828a2",
            "3ffe:2501:200:1fff::7,               2794,  3ffe:2501:200:3::1,       1766,  2cc18cd5, 40207d3d",
            "3ffe:501:8::260:97ff:fe40:efab,      14230, ff02::1,                  4739,  0f0c461c, dde51bbf",
            "3ffe:1900:4545:3:200:f8ff:fe21:67cf, 44251, fe80::200:f8ff:fe21:67cf, 38024, 4b61e985, 02d1feef",
    })
    void hashEqualsPublishedVerificationValues(String src, int srcPort, String dst, int dstPort,
                                               String addressesOnly, String withPorts) {
        byte[] source = TestFrames.address(src);
        byte[] destination = TestFrames.address(dst);
        ByteBuffer input = ByteBuffer.allocate(2 * source.length + 4)
                .put(source).put(destination).putShort((short) srcPort).putShort((short) dstPort);
        MemorySegment segment = MemorySegment.ofArray(input.array());

        assertThat(hex(microsoft.hash(segment, 0, 2 * source.length))).isEqualTo(addressesOnly);
        assertThat(hex(microsoft.hash(segment, 0, input.capacity()))).isEqualTo(withPorts);
    }

    @ParameterizedTest(name = "{0}:{1} -> {2}:{3}")
    @CsvSource({
            "66.9.149.187,          2794, 161.142.100.80,     1766, 51ccc178",
            "3ffe:2501:200:1fff::7, 2794, 3ffe:2501:200:3::1, 1766, 40207d3d",
    })
    void framesHashTheirFiveTupleInNicOrder(String src, int srcPort, String dst, int dstPort, String expected) {
        RssHash rss = new RssHash(microsoft, true);
        MemorySegment tagged = TestFrames.frame(0x005056000002L, 100, src, srcPort, dst, dstPort, TestFrames.TCP);

        assertThat(hex(rss.hash(tagged, 0, (int) tagged.byteSize()))).isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource({"10.0.0.1, 10.9.8.7", "2001:db8::1, 2001:db8:ffff::42"})
    void symmetricKeyHashesBothDirectionsOfAConnectionAlike(String a, String b) {
        RssHash rss = new RssHash(new ToeplitzHash(ToeplitzHash.SYMMETRIC_KEY), true);
        MemorySegment forward = TestFrames.frame(0x005056000002L, 0, a, 40000, b, 443, TestFrames.TCP);
        MemorySegment reverse = TestFrames.frame(0x005056000002L, 0, b, 443, a, 40000, TestFrames.TCP);

        assertThat(rss.hash(forward, 0, (int) forward.byteSize()))
                .isEqualTo(rss.hash(reverse, 0, (int) reverse.byteSize()));
        RssHash asymmetric = new RssHash(microsoft, true);
        assertThat(asymmetric.hash(forward, 0, (int) forward.byteSize()))
                .isNotEqualTo(asymmetric.hash(reverse, 0, (int) reverse.byteSize()));
    }

    private static String hex(int hash) {
        return String.format("%08x", hash);
    }
}
