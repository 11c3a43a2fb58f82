package io.edp.manager.host;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.stream.Collectors;

import io.edp.manager.api.InvalidRequestException;
import jakarta.persistence.CollectionTable;
import jakarta.persistence.Column;
import jakarta.persistence.ElementCollection;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.MapKeyColumn;
import jakarta.persistence.OrderBy;
import jakarta.persistence.Version;

/**
 * A host of the inventory. Its NUMA nodes and labels belong to it (a change to them bumps its version); its NICs
 * and VMs are separate resources that the database deletes with it.
 */
@Entity
public class Host {

    @Id
    @GeneratedValue(strategy = GenerationType.UUID)
    private UUID id;

    private String name;

    private String managementAddress;

    @Enumerated(EnumType.STRING)
    private Placement placement = Placement.EMBEDDED;

    @ElementCollection
    @CollectionTable(name = "host_numa_node", joinColumns = @JoinColumn(name = "host_id"))
    @OrderBy("nodeId")
    private List<HostNumaNode> numaNodes = new ArrayList<>();

    @ElementCollection
    @CollectionTable(name = "host_label", joinColumns = @JoinColumn(name = "host_id"))
    @MapKeyColumn(name = "name")
    @Column(name = "value")
    private Map<String, String> labels = new HashMap<>();

    @Version
    private Long version;

    protected Host() {
    }

    Host(HostRequest request) {
        apply(request);
    }

    void apply(HostRequest request) {
        name = request.name();
        managementAddress = request.managementAddress();
        placement = request.placementOrDefault();
        // Rewriting a collection bumps the version even with equal content: touch them only when they change,
        // so that re-applying the same state (a repeated PUT) keeps the version.
        var nodes = request.numaNodes().stream().sorted(Comparator.comparing(NumaNode::id)).toList();
        if (!nodes.equals(numaNodes())) {
            numaNodes.clear();
            nodes.forEach(node -> numaNodes.add(new HostNumaNode(node.id(),
                    node.cpuCores().stream().mapToInt(Integer::intValue).toArray())));
        }
        if (!labels.equals(request.labelsOrEmpty())) {
            labels.clear();
            labels.putAll(request.labelsOrEmpty());
        }
    }

    HostRequest toRequest() {
        return new HostRequest(name, managementAddress, placement, numaNodes(), new TreeMap<>(labels));
    }

    public UUID id() {
        return id;
    }

    public String name() {
        return name;
    }

    /** Null until first flushed: that is how Spring Data tells a new entity. */
    public Long version() {
        return version;
    }

    String managementAddress() {
        return managementAddress;
    }

    public Placement placement() {
        return placement;
    }

    List<NumaNode> numaNodes() {
        return numaNodes.stream()
                .map(node -> new NumaNode(node.nodeId(), Arrays.stream(node.cpuCores()).boxed().toList()))
                .toList();
    }

    Map<String, String> labels() {
        return new TreeMap<>(labels);
    }

    private Set<Integer> numaNodeIds() {
        return numaNodes.stream().map(HostNumaNode::nodeId).collect(Collectors.toCollection(TreeSet::new));
    }

    /** The check every NIC and VM of this host runs on its NUMA node: 400 unless the node exists here. */
    public void requireNumaNode(int nodeId) {
        if (numaNodes.stream().noneMatch(node -> node.nodeId() == nodeId)) {
            throw new InvalidRequestException("numaNode", "NUMA node " + nodeId + " does not exist on host '" + name
                    + "' (its nodes: " + numaNodeIds() + ")");
        }
    }
}
