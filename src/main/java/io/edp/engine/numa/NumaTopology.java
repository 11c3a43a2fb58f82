package io.edp.engine.numa;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/** The host's NUMA nodes and their CPUs, as Linux lists them under {@code /sys/devices/system/node}. */
public record NumaTopology(SortedMap<Integer, CpuSet> nodes) {

    public static final Path SYSFS_NODES = Path.of("/sys/devices/system/node");

    public NumaTopology {
        nodes = Collections.unmodifiableSortedMap(new TreeMap<>(nodes));
    }

    /** Reads {@code nodeN/cpulist} under {@code sysfsNodes}; an empty topology where there is none (not Linux). */
    public static NumaTopology read(Path sysfsNodes) {
        SortedMap<Integer, CpuSet> nodes = new TreeMap<>();
        if (!Files.isDirectory(sysfsNodes)) {
            return new NumaTopology(nodes);
        }
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(sysfsNodes, "node[0-9]*")) {
            for (Path node : entries) {
                int id = Integer.parseInt(node.getFileName().toString().substring("node".length()));
                nodes.put(id, CpuSet.parse(Files.readString(node.resolve("cpulist"))));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read NUMA topology from " + sysfsNodes, e);
        }
        return new NumaTopology(nodes);
    }

    public Optional<CpuSet> cpusOf(int node) {
        return Optional.ofNullable(nodes.get(node));
    }
}
