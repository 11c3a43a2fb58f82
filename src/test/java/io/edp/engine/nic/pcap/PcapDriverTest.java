package io.edp.engine.nic.pcap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.edp.bench.HostCommand;
import io.edp.engine.mbuf.Mbuf;
import io.edp.engine.mbuf.MbufCache;
import io.edp.engine.mbuf.MbufPool;
import io.edp.engine.nic.NicDriver;
import io.edp.engine.nic.NicSetupException;
import io.edp.engine.nic.TestFrames;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The pcap port against the reference readers: tshark and tcpdump. */
class PcapDriverTest {

    private static final long FIRST_CAPTURE_NANOS = 1_700_000_000_123_456_789L;

    @TempDir
    Path dir;

    private final MbufPool pool = new MbufPool(1024, Mbuf.DESCRIPTOR_BYTES);
    private final MbufCache cache = new MbufCache(pool);
    private final int[] burst = new int[NicDriver.MAX_BURST];

    @ParameterizedTest(name = "{0}, nanoseconds={1}")
    @CsvSource({"LITTLE_ENDIAN, false", "LITTLE_ENDIAN, true", "BIG_ENDIAN, false", "BIG_ENDIAN, true"})
    void readsClassicPcapInBothByteOrdersAndResolutionsAsTsharkDoes(String order, boolean nanos) throws IOException {
        ByteOrder byteOrder = order.equals("BIG_ENDIAN") ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
        List<byte[]> frames = List.of(TestFrames.udp(1000, 60), TestFrames.udp(1001, 200), TestFrames.udp(1002, 1514));
        long[] captured = {FIRST_CAPTURE_NANOS, FIRST_CAPTURE_NANOS + 1_500_000, FIRST_CAPTURE_NANOS + 2_000_000_000L};
        Path file = writeCapture(byteOrder, nanos, frames, captured);
        String[] tshark = HostCommand.run("tshark", "-r", file.toString(), "-T", "fields", "-e", "frame.len",
                "-e", "frame.time_epoch").strip().split("\n");

        try (PcapDriver driver = PcapDriver.open(PcapConfig.of(file, null), 3, pool)) {
            int n = driver.rxBurst(0, cache, burst, NicDriver.MAX_BURST);

            assertThat(n).isEqualTo(3);
            assertThat(tshark).hasSize(3);
            Mbuf m = new Mbuf(pool);
            for (int i = 0; i < n; i++) {
                m.wrap(burst[i]);
                String[] fields = tshark[i].split("\t");
                assertThat(m.dataLength()).isEqualTo(Integer.parseInt(fields[0]));
                assertThat(m.timestamp()).isEqualTo(new BigDecimal(fields[1]).movePointRight(9).longValueExact());
                assertThat(bytes(m)).isEqualTo(frames.get(i));
                assertThat(m.port()).isEqualTo(3);
            }
            assertThat(driver.replayDone()).isTrue();
        }
    }

    @ParameterizedTest(name = "nanoseconds={0}")
    @CsvSource({"false", "true"})
    void writesWhatItTransmitsAsAFileTsharkAndTcpdumpRead(boolean nanos) {
        Path out = dir.resolve("out.pcap");
        int[] perPort = new int[4];
        try (PcapDriver driver =
                PcapDriver.open(new PcapConfig(null, out, PcapConfig.Replay.FULL_SPEED, nanos), 0, pool)) {
            Mbuf m = new Mbuf(pool);
            for (int round = 0; round < 25; round++) {
                for (int i = 0; i < 4; i++) {
                    byte[] frame = TestFrames.udp(2000 + i, 60 + 100 * i);
                    burst[i] = cache.allocate();
                    m.wrap(burst[i]).copyFrom(MemorySegment.ofArray(frame), 0, frame.length);
                    perPort[i]++;
                }
                assertThat(driver.txBurst(0, cache, burst, 4)).isEqualTo(4);
            }
        }

        String ports = HostCommand.run("tshark", "-r", out.toString(), "-T", "fields",
                "-e", "udp.srcport", "-e", "frame.len");
        for (int i = 0; i < 4; i++) {
            String line = (2000 + i) + "\t" + (60 + 100 * i);
            assertThat(ports.lines().filter(line::equals).count()).as(line).isEqualTo(perPort[i]);
        }
        assertThat(ports.lines().count()).isEqualTo(100);
        assertThat(HostCommand.run("tcpdump", "-r", out.toString(), "-n").lines().count()).isEqualTo(100);
    }

    @Test
    void originalTimingHoldsEachFrameBackUntilItsOffsetFromTheFirstHasPassed() throws IOException {
        long[] captured = {FIRST_CAPTURE_NANOS, FIRST_CAPTURE_NANOS + 5_000_000, FIRST_CAPTURE_NANOS + 900_000_000};
        Path file = writeCapture(ByteOrder.LITTLE_ENDIAN, true,
                List.of(TestFrames.udp(1, 60), TestFrames.udp(2, 60), TestFrames.udp(3, 60)), captured);
        long[] clock = {42_000_000_000L};
        PcapConfig config = new PcapConfig(file, null, PcapConfig.Replay.ORIGINAL_TIMING, false);
        try (PcapDriver driver = PcapDriver.open(config, 0, pool, () -> clock[0])) {
            int first = driver.rxBurst(0, cache, burst, NicDriver.MAX_BURST);
            clock[0] += 4_999_999;
            int early = driver.rxBurst(0, cache, burst, NicDriver.MAX_BURST);
            clock[0] += 1;
            int second = driver.rxBurst(0, cache, burst, NicDriver.MAX_BURST);
            clock[0] += 895_000_000;
            int third = driver.rxBurst(0, cache, burst, NicDriver.MAX_BURST);

            assertThat(new int[] {first, early, second, third}).containsExactly(1, 0, 1, 1);
            assertThat(driver.replayDone()).isTrue();
        }
    }

    @Test
    void pcapngAndMissingFilesAreNamedInOneLine() throws IOException {
        Path pcapng = dir.resolve("capture.pcapng");
        Files.write(pcapng, new byte[] {0x0a, 0x0d, 0x0d, 0x0a, 28, 0, 0, 0, 0x4d, 0x3c, 0x2b, 0x1a, 1, 0, 0, 0,
                -1, -1, -1, -1, -1, -1, -1, -1, 28, 0, 0, 0});
        Path missing = dir.resolve("missing.pcap");

        assertThatThrownBy(() -> PcapDriver.open(PcapConfig.of(pcapng, null), 0, pool))
                .isInstanceOf(NicSetupException.class)
                .hasMessage("pcap " + pcapng + ": pcapng is not supported, convert it with: editcap -F pcap IN OUT");
        assertThatThrownBy(() -> PcapDriver.open(PcapConfig.of(missing, null), 0, pool))
                .isInstanceOf(NicSetupException.class)
                .hasMessageStartingWith("pcap " + missing + ": cannot read");
    }

    /** A capture written field by field, as another tool on another machine would write it. */
    private Path writeCapture(ByteOrder order, boolean nanos, List<byte[]> frames, long[] captured) throws IOException {
        int size = 24 + frames.stream().mapToInt(f -> 16 + f.length).sum();
        ByteBuffer file = ByteBuffer.allocate(size).order(order);
        file.putInt(nanos ? 0xa1b23c4d : 0xa1b2c3d4).putShort((short) 2).putShort((short) 4).putInt(0).putInt(0)
                .putInt(65535).putInt(1);
        for (int i = 0; i < frames.size(); i++) {
            long fraction = captured[i] % 1_000_000_000L;
            file.putInt((int) (captured[i] / 1_000_000_000L)).putInt((int) (nanos ? fraction : fraction / 1000))
                    .putInt(frames.get(i).length).putInt(frames.get(i).length).put(frames.get(i));
        }
        Path path = dir.resolve("in-" + order + "-" + nanos + ".pcap");
        Files.write(path, file.array());
        return path;
    }

    private static byte[] bytes(Mbuf m) {
        return m.data().asSlice(m.dataAddress(), m.dataLength()).toArray(ValueLayout.JAVA_BYTE);
    }
}
