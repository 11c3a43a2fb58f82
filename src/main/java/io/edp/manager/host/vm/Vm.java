package io.edp.manager.host.vm;

import java.util.UUID;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import jakarta.persistence.Version;

/** A VM on a host. Its virtual NICs are a separate resource that the database deletes with it. */
@Entity
@Table(name = "vm")
public class Vm {

    @Id
    @GeneratedValue(strategy = GenerationType.UUID)
    private UUID id;

    private UUID hostId;

    private String name;

    private int vcpus;

    private int numaNode;

    @Version
    private Long version;

    protected Vm() {
    }

    Vm(UUID hostId, VmRequest request) {
        this.hostId = hostId;
        apply(request);
    }

    void apply(VmRequest request) {
        name = request.name();
        vcpus = request.vcpus();
        numaNode = request.numaNode();
    }

    VmRequest toRequest() {
        return new VmRequest(name, vcpus, numaNode);
    }

    public UUID id() {
        return id;
    }

    public UUID hostId() {
        return hostId;
    }

    public String name() {
        return name;
    }

    /** Null until first flushed: that is how Spring Data tells a new entity. */
    Long version() {
        return version;
    }
}
