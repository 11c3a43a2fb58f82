package io.edp.manager.host.pnic;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

import io.edp.engine.nic.DriverOptions;
import io.edp.engine.nic.NicDrivers;
import io.edp.engine.nic.PortConfig;
import io.edp.engine.nic.afpacket.AfPacketDriverFactory;
import io.edp.engine.nic.pcap.PcapDriverFactory;
import io.edp.manager.api.FieldProblem;
import io.edp.manager.api.InvalidRequestException;
import io.edp.manager.database.DataDirectoryProperties;
import io.edp.manager.engines.EngineProperties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.stereotype.Component;

/**
 * What the NIC drivers may touch on the manager's machine: {@code pcap} files only inside {@value #PCAP_DIR}, and
 * {@code af_packet} sockets only on the interfaces of {@value #AF_PACKET_INTERFACES}. An operator must not be able
 * to read or overwrite the manager's files, nor to listen on its interfaces, by way of a NIC. The API checks a NIC
 * when it is written (400); the drivers of {@link #drivers()} check again when a port opens, since settings and
 * files may have changed in between.
 */
@Component
@EnableConfigurationProperties({EngineProperties.class, DataDirectoryProperties.class})
public class NicConfinement {

    public static final String PCAP_DIR = "edp.engines.pcap-dir";
    public static final String AF_PACKET_INTERFACES = "edp.engines.af-packet-interfaces";

    private static final Logger log = LoggerFactory.getLogger(NicConfinement.class);

    private final boolean realDrivers;
    private final Path pcapDir;
    private final Set<String> interfaces;

    public NicConfinement(EngineProperties engines, DataDirectoryProperties data) {
        this.realDrivers = engines.realDrivers();
        this.pcapDir = (engines.pcapDir() != null ? engines.pcapDir() : data.dataDir().resolve("pcap"))
                .toAbsolutePath().normalize();
        this.interfaces = Set.copyOf(engines.afPacketInterfaces());
        try {
            Files.createDirectories(pcapDir);
        } catch (IOException e) {
            log.warn("{} {} cannot be created ({}): pcap NICs cannot open until it exists", PCAP_DIR, pcapDir,
                    e.toString());
        }
    }

    /** The directory pcap NICs read and write in, absolute. */
    public Path pcapDir() {
        return pcapDir;
    }

    /**
     * Checks a NIC's driver as the API receives it; {@code current} is the NIC's driver before this write, null
     * for a new NIC.
     *
     * @throws InvalidRequestException naming each field that reaches outside the confinement
     */
    void check(DriverSettings driver, DriverSettings current) {
        List<FieldProblem> problems = new ArrayList<>();
        switch (driver) {
            case DriverSettings.Loopback() -> { }
            case DriverSettings.AfPacket(var iface) -> refusal(() -> requireInterface(iface))
                    .ifPresent(message -> problems.add(new FieldProblem("driver.interfaceName", message)));
            case DriverSettings.Pcap(var input, var output) -> {
                refusal(() -> pcapFile(input))
                        .ifPresent(message -> problems.add(new FieldProblem("driver.inputFile", message)));
                refusal(() -> newOutput(input, output, current))
                        .ifPresent(message -> problems.add(new FieldProblem("driver.outputFile", message)));
            }
        }
        if (!problems.isEmpty()) {
            throw new InvalidRequestException(problems);
        }
    }

    /** A file that exists is written only by the NIC that created it: never one that was there before. */
    private void newOutput(String input, String output, DriverSettings current) {
        var file = pcapFile(output);
        if (resolvesTo(input, file)) {
            throw new IllegalArgumentException("must not be the input file");
        }
        boolean ownCapture = current instanceof DriverSettings.Pcap(var ignored, var currentOutput)
                && resolvesTo(currentOutput, file);
        if (!ownCapture && Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
            throw new IllegalArgumentException("'" + output + "' already exists; a pcap NIC writes only a file it "
                    + "creates itself: name a new file");
        }
    }

    private boolean resolvesTo(String value, Path file) {
        return refusal(() -> pcapFile(value)).isEmpty() && pcapFile(value).equals(file);
    }

    /**
     * The engine's drivers, confined: {@code pcap} ports get their files resolved in {@value #PCAP_DIR} and
     * {@code af_packet} ports open only allowed interfaces; with {@code edp.engines.real-drivers=false}, only
     * {@code loopback}.
     */
    public NicDrivers drivers() {
        if (!realDrivers) {
            return NicDrivers.withLoopback();
        }
        var afPacket = new AfPacketDriverFactory();
        var pcap = new PcapDriverFactory();
        return NicDrivers.withLoopback()
                .with(AfPacketDriverFactory.KIND, (port, pool) -> {
                    requireInterface(new DriverOptions(port).required("interface"));
                    return afPacket.open(port, pool);
                })
                .with(PcapDriverFactory.KIND, (port, pool) -> pcap.open(withConfinedFiles(port), pool));
    }

    /** The drivers every embedded engine opens its ports with: the engines' module needs no host type for them. */
    @Bean
    NicDrivers confinedNicDrivers() {
        return drivers();
    }

    private PortConfig withConfinedFiles(PortConfig port) {
        var options = new HashMap<>(port.driverOptions());
        var given = new DriverOptions(port);
        for (var file : List.of("rxFile", "txFile")) {
            var value = given.optional(file);
            if (value != null) {
                try {
                    options.put(file, pcapFile(value).toString());
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException(given.field(file) + " '" + value + "' " + e.getMessage(), e);
                }
            }
        }
        return new PortConfig(port.id(), port.name(), port.numaNode(), port.rxQueues(), port.txQueues(),
                port.driver(), options);
    }

    private void requireInterface(String iface) {
        if (!interfaces.contains(iface)) {
            throw new IllegalArgumentException("interface '" + iface + "' is not allowed: list it in "
                    + AF_PACKET_INTERFACES + (interfaces.isEmpty() ? " (empty: no af_packet NIC may open)"
                    : " (now " + String.join(",", interfaces.stream().sorted().toList()) + ")"));
        }
    }

    /**
     * {@code value} (relative to the pcap directory, or absolute inside it) as an absolute path that is inside it,
     * also once symbolic links are followed.
     */
    Path pcapFile(String value) {
        Path raw;
        try {
            raw = Path.of(value);
        } catch (InvalidPathException e) {
            throw new IllegalArgumentException("is not a file path");
        }
        for (var name : raw) {
            if (name.toString().equals("..")) {
                throw new IllegalArgumentException("must not contain '..'");
            }
        }
        var file = pcapDir.resolve(raw).normalize();
        if (!file.startsWith(pcapDir) || file.equals(pcapDir)) {
            throw new IllegalArgumentException("must be a file inside " + PCAP_DIR + " (" + pcapDir + ")");
        }
        var existing = file;
        while (!Files.exists(existing, LinkOption.NOFOLLOW_LINKS)) {
            existing = existing.getParent();
        }
        try {
            if (!existing.toRealPath().startsWith(pcapDir.toRealPath())) {
                throw new IllegalArgumentException("leads outside " + PCAP_DIR + " (" + pcapDir
                        + ") through a symbolic link");
            }
        } catch (IOException e) {
            // a dangling link, or the directory is missing: nothing inside can be read or written
            throw new IllegalArgumentException("cannot be resolved inside " + PCAP_DIR + " (" + pcapDir + ")");
        }
        return file;
    }

    private static Optional<String> refusal(Runnable check) {
        try {
            check.run();
            return Optional.empty();
        } catch (IllegalArgumentException e) {
            return Optional.of(Objects.requireNonNull(e.getMessage()));
        }
    }
}
