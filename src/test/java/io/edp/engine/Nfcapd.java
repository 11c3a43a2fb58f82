package io.edp.engine;

import io.edp.bench.HostCommand;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.DatagramChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * nfdump's collector, started for a test on a private port with its files in a temporary directory;
 * {@link #stopAndRead} stops it and reads what it stored with {@code nfdump -o csv}.
 */
final class Nfcapd implements AutoCloseable {

    private final Path directory;
    private final Path output;
    private final int port;
    private final Process process;

    Nfcapd(Path directory) {
        this.directory = directory;
        this.output = directory.resolveSibling(directory.getFileName() + ".out");
        this.port = freeUdpPort();
        try {
            Files.createDirectories(directory);
            // stdbuf: -E prints each record as it is stored, line-buffered, so the count below is exact
            process = new ProcessBuilder("stdbuf", "-oL", "nfcapd", "-b", "127.0.0.1", "-p", Integer.toString(port),
                    "-w", directory.toString(), "-t", "3600", "-B", Integer.toString(8 << 20), "-E")
                    .redirectErrorStream(true).redirectOutput(output.toFile()).start();
        } catch (IOException e) {
            throw new UncheckedIOException("nfcapd (apt-get install nfdump)", e);
        }
        Await.until("nfcapd listening on " + port, () -> !process.isAlive() || bound(port), Duration.ofSeconds(10));
        if (!process.isAlive()) {
            throw new IllegalStateException("nfcapd ended: " + read(output));
        }
    }

    InetSocketAddress address() {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
    }

    /** Waits until nfcapd has printed {@code records} flow records (-E), then stops it and reads its files. */
    List<Map<String, String>> stopAndRead(long records) {
        Await.until("nfcapd to take " + records + " records", () -> printedRecords() >= records,
                Duration.ofSeconds(20), () -> printedRecords() + " taken");
        process.destroy();
        try {
            process.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        String csv = HostCommand.run("nfdump", "-R", directory.toString(), "-o", "csv");
        return parse(csv);
    }

    private long printedRecords() {
        return read(output).lines().filter(line -> line.startsWith("Flow Record:")).count();
    }

    /** nfdump's csv: a header line, then one line per record, as maps from column name to value. */
    static List<Map<String, String>> parse(String csv) {
        List<String> lines = csv.lines().filter(line -> !line.isBlank()).toList();
        List<Map<String, String>> rows = new ArrayList<>();
        String[] header = lines.getFirst().split(",");
        for (String line : lines.subList(1, lines.size())) {
            String[] values = line.split(",");
            if (values.length < header.length / 2) {
                continue; // a summary line
            }
            Map<String, String> row = new TreeMap<>();
            for (int i = 0; i < header.length && i < values.length; i++) {
                row.put(header[i].trim(), values[i].trim());
            }
            rows.add(row);
        }
        return rows;
    }

    private static String read(Path file) {
        try {
            return Files.exists(file) ? Files.readString(file) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Whether a UDP socket is bound to {@code port}, read from the kernel's table: probing by binding the port
     * ourselves could take it from nfcapd at the moment it binds (CI saw "Address already in use").
     */
    private static boolean bound(int port) {
        String local = String.format(":%04X ", port);
        return read(Path.of("/proc/net/udp")).lines().skip(1)
                .anyMatch(line -> line.trim().split("\\s+")[1].concat(" ").endsWith(local));
    }

    private static int freeUdpPort() {
        try (DatagramChannel probe = DatagramChannel.open()) {
            probe.bind(new InetSocketAddress("127.0.0.1", 0));
            return ((InetSocketAddress) probe.getLocalAddress()).getPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        process.destroyForcibly();
    }
}
