package io.edp.manager.host.vnic;

import java.util.UUID;

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

    VirtualNic(UUID hostId, UUID vmId, VirtualNicRequest request) {
        this.hostId = hostId;
        this.vmId = vmId;
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

    /** Null until first flushed: that is how Spring Data tells a new entity. */
    Long version() {
        return version;
    }
}
