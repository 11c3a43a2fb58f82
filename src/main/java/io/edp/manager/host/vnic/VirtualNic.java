package io.edp.manager.host.vnic;

import java.util.UUID;

import io.edp.manager.host.HostService;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Version;

/** A virtual NIC of a VM. It also records the VM's host, so that the database keeps MACs unique per host. */
@Entity
public class VirtualNic {

    @Id
    @GeneratedValue(strategy = GenerationType.UUID)
    private UUID id;

    private UUID vmId;

    private UUID hostId;

    /** Its port's id in the host's engine, given at creation and kept ({@link HostService#requireForNewPort}). */
    @Column(updatable = false)
    private int enginePort;

    /** The N of its port's name, {@code <vm>-eth<N>}: the lowest free in the VM at creation, kept. */
    @Column(updatable = false)
    private int portIndex;

    private String mac;

    private int vlan;

    @Enumerated(EnumType.STRING)
    private AdapterType adapterType;

    private int rxQueues;

    private int mtu;

    @Version
    private Long version;

    protected VirtualNic() {
    }

    VirtualNic(UUID hostId, UUID vmId, int enginePort, int portIndex, VirtualNicRequest request) {
        this.hostId = hostId;
        this.vmId = vmId;
        this.enginePort = enginePort;
        this.portIndex = portIndex;
        apply(request);
    }

    void apply(VirtualNicRequest request) {
        mac = request.normalizedMac();
        vlan = request.vlan();
        adapterType = request.adapterType();
        rxQueues = request.rxQueues();
        mtu = request.mtuOrDefault();
    }

    VirtualNicRequest toRequest() {
        return new VirtualNicRequest(mac, vlan, adapterType, rxQueues, mtu);
    }

    UUID id() {
        return id;
    }

    UUID vmId() {
        return vmId;
    }

    int enginePort() {
        return enginePort;
    }

    int portIndex() {
        return portIndex;
    }

    /** Null until first flushed: that is how Spring Data tells a new entity. */
    Long version() {
        return version;
    }
}
