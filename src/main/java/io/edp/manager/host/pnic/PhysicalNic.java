package io.edp.manager.host.pnic;

import java.util.UUID;

import io.edp.manager.host.HostService;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Version;

/** A physical NIC of a host. The driver's settings are flat columns; {@link #driver()} gives them their type. */
@Entity
public class PhysicalNic {

    @Id
    @GeneratedValue(strategy = GenerationType.UUID)
    private UUID id;

    private UUID hostId;

    /** Its port's id in the host's engine, given at creation and kept ({@link HostService#requireForNewPort}). */
    @Column(updatable = false)
    private int enginePort;

    private String name;

    private int numaNode;

    private int speedMbps;

    private int rxQueues;

    private boolean rss;

    private int mtu;

    private String driverKind;

    private String interfaceName;

    private String pcapInputFile;

    private String pcapOutputFile;

    @Version
    private Long version;

    protected PhysicalNic() {
    }

    PhysicalNic(UUID hostId, int enginePort, PhysicalNicRequest request) {
        this.hostId = hostId;
        this.enginePort = enginePort;
        apply(request);
    }

    void apply(PhysicalNicRequest request) {
        name = request.name();
        numaNode = request.numaNode();
        speedMbps = request.speedMbps();
        rxQueues = request.rxQueues();
        rss = request.rss();
        mtu = request.mtuOrDefault();
        interfaceName = null;
        pcapInputFile = null;
        pcapOutputFile = null;
        driverKind = switch (request.driver()) {
            case DriverSettings.Loopback() -> DriverSettings.LOOPBACK;
            case DriverSettings.AfPacket(var iface) -> {
                interfaceName = iface;
                yield DriverSettings.AF_PACKET;
            }
            case DriverSettings.Pcap(var input, var output) -> {
                pcapInputFile = input;
                pcapOutputFile = output;
                yield DriverSettings.PCAP;
            }
        };
    }

    DriverSettings driver() {
        return switch (driverKind) {
            case DriverSettings.LOOPBACK -> new DriverSettings.Loopback();
            case DriverSettings.AF_PACKET -> new DriverSettings.AfPacket(interfaceName);
            case DriverSettings.PCAP -> new DriverSettings.Pcap(pcapInputFile, pcapOutputFile);
            default -> throw new IllegalStateException("unknown driver kind in the database: " + driverKind);
        };
    }

    PhysicalNicRequest toRequest() {
        return new PhysicalNicRequest(name, numaNode, speedMbps, rxQueues, rss, driver(), mtu);
    }

    UUID id() {
        return id;
    }

    UUID hostId() {
        return hostId;
    }

    int enginePort() {
        return enginePort;
    }

    /** Null until first flushed: that is how Spring Data tells a new entity. */
    Long version() {
        return version;
    }
}
