package io.edp.engine;

import io.edp.bench.HostCommand;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** tshark reading a capture of IPFIX messages to one UDP port, decoded as such ({@code -d udp.port==P,cflow}). */
final class Tshark {

    private Tshark() {
    }

    /** The full decode ({@code -V}) of every message. */
    static String decode(Path pcap, int port) {
        return HostCommand.run("tshark", "-r", pcap.toString(), "-d", "udp.port==" + port + ",cflow", "-V");
    }

    /**
     * Every value of each of {@code fields} in every message, in order (a message's several values split apart):
     * one run of tshark for all of them.
     */
    static Map<String, List<String>> fields(Path pcap, int port, String... fields) {
        List<String> command = new ArrayList<>(List.of("tshark", "-r", pcap.toString(), "-d",
                "udp.port==" + port + ",cflow", "-T", "fields", "-E", "occurrence=a", "-E", "aggregator=,"));
        Map<String, List<String>> values = new LinkedHashMap<>();
        for (String field : fields) {
            command.addAll(List.of("-e", field));
            values.put(field, new ArrayList<>());
        }
        for (String line : HostCommand.run(command.toArray(String[]::new)).lines().toList()) {
            String[] columns = line.split("\t", -1);
            for (int f = 0; f < fields.length; f++) {
                for (String value : columns[f].split(",")) {
                    if (!value.isBlank()) {
                        values.get(fields[f]).add(value.trim());
                    }
                }
            }
        }
        return values;
    }
}
