package io.edp.engine;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.DatagramChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A collector for tests: a UDP socket on loopback that keeps every message it receives, reads their data records
 * (the exporter's templates 256 and 257, decoded independently of its code) and writes them as a capture for
 * tshark.
 */
final class IpfixCapture implements AutoCloseable {

    /** One data record as a collector reads it. */
    record FlowRecord(int template, String protocol, String source, int sourcePort, String destination,
            int destinationPort, int tcpFlags, long bytes, long packets, long startMillis, long endMillis,
            int endReason, int vlan, int ingress, int egress, int ruleId) {

        String fiveTuple() {
            return FiveTuples.key(protocol, source, sourcePort, destination, destinationPort);
        }
    }

    private static final int HEADER_BYTES = 16;
    private static final short TEMPLATE_SET = 2;

    private final DatagramChannel channel;
    private final List<byte[]> messages = new ArrayList<>();
    private final Thread thread;

    IpfixCapture() {
        try {
            channel = DatagramChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            channel.socket().setReceiveBufferSize(8 << 20);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        thread = Thread.ofPlatform().name("ipfix-capture").daemon(true).start(this::receive);
    }

    InetSocketAddress address() {
        try {
            return (InetSocketAddress) channel.getLocalAddress();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void receive() {
        ByteBuffer buffer = ByteBuffer.allocate(65_536);
        try {
            while (true) {
                buffer.clear();
                channel.receive(buffer);
                buffer.flip();
                byte[] message = new byte[buffer.remaining()];
                buffer.get(message);
                synchronized (messages) {
                    messages.add(message);
                }
            }
        } catch (ClosedChannelException e) {
            // closed by the test
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    List<byte[]> messages() {
        synchronized (messages) {
            return List.copyOf(messages);
        }
    }

    void awaitMessages(long count) {
        Await.until(count + " IPFIX messages", () -> messages().size() >= count, Duration.ofSeconds(20),
                () -> messages().size() + " received");
    }

    /** Every data record of every message received, in order. */
    List<FlowRecord> records() {
        List<FlowRecord> records = new ArrayList<>();
        for (byte[] m : messages()) {
            ByteBuffer b = ByteBuffer.wrap(m);
            if (b.getShort(0) != 10 || b.getShort(2) != m.length) {
                throw new AssertionError("not an IPFIX message of its stated length: " + Arrays.toString(m));
            }
            int at = HEADER_BYTES;
            while (at < m.length) {
                int setId = b.getShort(at) & 0xFFFF;
                int setLength = b.getShort(at + 2) & 0xFFFF;
                if (setId == 256 || setId == 257) {
                    b.position(at + 4);
                    int size = setId == 256 ? 62 : 86;
                    while (b.position() + size <= at + setLength) {
                        records.add(read(b, setId));
                    }
                }
                at += setLength;
            }
        }
        return records;
    }

    private static FlowRecord read(ByteBuffer b, int template) {
        byte[] src = new byte[template == 256 ? 4 : 16];
        byte[] dst = new byte[src.length];
        b.get(src).get(dst);
        int sourcePort = b.getShort() & 0xFFFF;
        int destinationPort = b.getShort() & 0xFFFF;
        int protocol = b.get() & 0xFF;
        int flags = b.getShort() & 0xFFFF;
        long bytes = b.getLong();
        long packets = b.getLong();
        long start = b.getLong();
        long end = b.getLong();
        int reason = b.get() & 0xFF;
        int vlan = b.getShort() & 0xFFFF;
        return new FlowRecord(template, FiveTuples.protocol(protocol), address(src), sourcePort, address(dst),
                destinationPort, flags, bytes, packets, start, end, reason, vlan, b.getInt(), b.getInt(), b.getInt());
    }

    static String address(byte[] raw) {
        try {
            return InetAddress.getByAddress(raw).getHostAddress();
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(e);
        }
    }

    static byte[] addressBytes(String text) {
        try {
            return InetAddress.getByName(text).getAddress();
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(e);
        }
    }

    /** Packets and bytes per 5-tuple over {@code records} (a long flow spans several). */
    static Map<String, List<Long>> sums(List<FlowRecord> records) {
        Map<String, List<Long>> sums = new TreeMap<>();
        for (FlowRecord r : records) {
            sums.merge(r.fiveTuple(), List.of(r.packets(), r.bytes()),
                    (a, b) -> List.of(a.get(0) + b.get(0), a.get(1) + b.get(1)));
        }
        return sums;
    }

    /**
     * The messages as a pcap of Ethernet/IPv4/UDP frames to {@code port}, for tshark, in the exporter's order: by
     * sequence number, a template message before the data message that shares its number. UDP may reorder even on
     * loopback (a sender moved to another CPU queues on that CPU's backlog), and tshark flags a message whose sequence
     * number is not the previous one's plus its records; a collector puts them back in order the same way.
     */
    void writeCapture(Path file, int port) {
        List<byte[]> all = messages().stream()
                .sorted(Comparator.comparingLong(IpfixCapture::sequence)
                        .thenComparing(m -> ByteBuffer.wrap(m).getShort(HEADER_BYTES) != TEMPLATE_SET))
                .toList();
        ByteBuffer out = ByteBuffer.allocate(24 + all.stream().mapToInt(m -> 16 + 42 + m.length).sum())
                .order(java.nio.ByteOrder.LITTLE_ENDIAN);
        out.putInt(0xa1b2c3d4).putShort((short) 2).putShort((short) 4).putInt(0).putInt(0).putInt(65_535).putInt(1);
        for (byte[] m : all) {
            int length = 42 + m.length;
            out.putInt(0).putInt(0).putInt(length).putInt(length);
            ByteBuffer f = ByteBuffer.allocate(length);
            f.put(new byte[] {2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1}).putShort((short) 0x0800);
            f.put((byte) 0x45).put((byte) 0).putShort((short) (length - 14)).putInt(0).put((byte) 64)
                    .put((byte) 17).putShort((short) 0).put(new byte[] {127, 0, 0, 1, 127, 0, 0, 1});
            int sum = 0;
            for (int i = 14; i < 34; i += 2) {
                sum += f.getShort(i) & 0xFFFF;
            }
            sum = (sum & 0xFFFF) + (sum >>> 16);
            f.putShort(24, (short) ~((sum & 0xFFFF) + (sum >>> 16)));
            f.putShort((short) 40_000).putShort((short) port).putShort((short) (length - 34)).putShort((short) 0);
            f.put(m);
            out.put(f.array());
        }
        try {
            Files.write(file, Arrays.copyOf(out.array(), out.position()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static long sequence(byte[] message) {
        return ByteBuffer.wrap(message).getInt(8) & 0xFFFF_FFFFL;
    }

    @Override
    public void close() {
        try {
            channel.close();
            thread.join();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
