package io.edp.manager.stats;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;

import io.edp.engine.EngineStats;
import io.edp.engine.RuleStats;
import io.edp.engine.slowpath.ConnectionTableStats;
import io.edp.manager.packetlog.PacketLogMetrics;
import io.edp.manager.engines.EngineLifecycle;
import io.edp.manager.engines.HostEngine;
import io.edp.manager.telemetry.IpfixMetrics;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * The engines' counters as metrics, labelled by host and worker (firewall rules' by host and rule: registered for
 * the rules a push brings, removed with the rules it takes away): registered when a host's engine starts, removed
 * when it stops. Meters read a snapshot that is at most {@link #MAX_AGE_NANOS} old, so one scrape takes one
 * snapshot per engine, not one per meter.
 */
@Component
class EngineMetrics {

    private static final long MAX_AGE_NANOS = 500_000_000L;

    private final MeterRegistry registry;
    private final Map<UUID, Registered> meters = new ConcurrentHashMap<>();

    /**
     * A host's meters and the snapshots they read, its rules' meters by rule id among them. Micrometer holds a
     * meter's state object weakly: it is held here, or the collector would reclaim it and the meters would freeze
     * at their last value.
     */
    private record Registered(Snapshot<EngineStats> snapshots, Snapshot<Map<Integer, RuleStats>> rules,
                              Snapshot<ConnectionTableStats> connections, Tags host, List<Meter.Id> ids,
                              Map<Integer, List<Meter.Id>> ruleIds) {
    }

    EngineMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    /** A value read from an engine, read again when asked after it aged: one read per scrape, not one per meter. */
    private static final class Snapshot<T> {
        private final Supplier<T> read;
        private volatile T latest;
        private volatile long takenAt;

        Snapshot(Supplier<T> read) {
            this.read = read;
        }

        T get() {
            long now = System.nanoTime();
            if (latest == null || now - takenAt > MAX_AGE_NANOS) {
                latest = read.get();
                takenAt = now;
            }
            return latest;
        }
    }

    @EventListener
    void engineStarted(EngineLifecycle.Started started) {
        removeMeters(started.hostId()); // meters of the same id would otherwise be found, not made
        var engine = started.engine();
        var snapshots = new Snapshot<>(engine::stats);
        var ids = new ArrayList<Meter.Id>();
        var host = Tags.of("host", started.hostName(), "host_id", started.hostId().toString());
        for (int i = 0; i < engine.config().workerCount(); i++) {
            int worker = i;
            var tags = host.and("worker", Integer.toString(worker));
            counter(ids, "edp.flowcache.hits", "Packets that hit a current flow-cache entry", tags, snapshots,
                    s -> s.workers().get(worker).flowCache().hits());
            counter(ids, "edp.flowcache.misses", "Flow-cache lookups without a usable entry", tags, snapshots,
                    s -> s.workers().get(worker).flowCache().misses());
            counter(ids, "edp.flowcache.slowpath", "Packets that ran the IOChain", tags, snapshots,
                    s -> s.workers().get(worker).flowCache().slowPath());
            counter(ids, "edp.flowcache.insertions", "Flow-cache insertions", tags, snapshots,
                    s -> s.workers().get(worker).flowCache().insertions());
            counter(ids, "edp.flowcache.evictions", "Flow-cache evictions", tags, snapshots,
                    s -> s.workers().get(worker).flowCache().evictions());
            counter(ids, "edp.flowcache.expirations", "Flow-cache expirations", tags, snapshots,
                    s -> s.workers().get(worker).flowCache().expirations());
            counter(ids, "edp.verifier.checks", "Fast-path hits the live verifier re-evaluated", tags, snapshots,
                    s -> s.workers().get(worker).flowCache().verifierChecks());
            counter(ids, "edp.verifier.mismatches", "Fast-path hits the slow path would have decided differently",
                    tags, snapshots, s -> s.workers().get(worker).flowCache().verifierMismatches());
            counter(ids, "edp.worker.rx.packets", "Packets received by the worker", tags, snapshots,
                    s -> s.workers().get(worker).rxPackets());
            counter(ids, "edp.worker.tx.packets", "Packets transmitted by the worker", tags, snapshots,
                    s -> s.workers().get(worker).txPackets());
            counter(ids, "edp.worker.exceptions", "Throwables the worker's duty cycle caught", tags, snapshots,
                    s -> s.workers().get(worker).exceptions());
            ids.add(Gauge.builder("edp.worker.running", snapshots,
                            s -> s.get().workers().get(worker).health().isRunning() ? 1 : 0)
                    .description("1 while the worker runs, 0 when it stalled or died (see /stats/threads)")
                    .tags(tags).register(registry).getId());
            ids.add(Gauge.builder("edp.flowcache.entries", snapshots,
                            s -> s.get().workers().get(worker).flowCache().entries())
                    .description("Entries in the worker's flow cache").tags(tags).register(registry).getId());
            ids.add(Gauge.builder("edp.worker.utilization", snapshots,
                            s -> s.get().workers().get(worker).utilization())
                    .description("Busy share of the worker's life, 0..1").tags(tags).register(registry).getId());
        }
        var connections = new Snapshot<>(engine::connectionStats);
        ids.add(Gauge.builder("edp.conntrack.capacity", connections, s -> s.get().capacity())
                .description("Slots of the connection table").tags(host).register(registry).getId());
        ids.add(Gauge.builder("edp.conntrack.entries", connections, s -> s.get().entries())
                .description("Live connections in the connection table").tags(host).register(registry).getId());
        for (String state : engine.connectionStats().states().keySet()) {
            ids.add(Gauge.builder("edp.conntrack.connections", connections, s -> s.get().states().get(state))
                    .description("Live connections in a state").tags(host.and("state", state)).register(registry)
                    .getId());
        }
        counter(ids, "edp.flood.frames", "Broadcast and multicast frames flooded in their VLAN", host, snapshots,
                s -> s.flood().frames());
        counter(ids, "edp.flood.copies", "Copies made of flooded frames, one per extra port", host, snapshots,
                s -> s.flood().copies());
        counter(ids, "edp.flood.rate.limited", "Broadcast and multicast frames storm control dropped (over a "
                + "worker's rate of flooded frames)", host, snapshots, s -> s.flood().rateLimited());
        routerReply(ids, "arp", host, snapshots, s -> s.routerReplies().arpReplies());
        routerReply(ids, "neighbor_advertisement", host, snapshots, s -> s.routerReplies().neighborAdvertisements());
        routerReply(ids, "echo", host, snapshots, s -> s.routerReplies().echoReplies());
        routerReply(ids, "time_exceeded", host, snapshots, s -> s.routerReplies().timeExceeded());
        routerReply(ids, "packet_too_big", host, snapshots, s -> s.routerReplies().packetTooBig());
        counter(ids, "edp.router.replies.rate.limited", "Router packets held back by the per-worker rate limit",
                host, snapshots, s -> s.routerReplies().rateLimited());
        // the snapshots hold the engine for Micrometer's weak references
        ids.addAll(IpfixMetrics.register(registry, host, engine));
        ids.addAll(PacketLogMetrics.register(registry, host, engine));
        var rules = new Snapshot<Map<Integer, RuleStats>>(() -> byId(engine.ruleStats()));
        var registered = new Registered(snapshots, rules, connections, host, ids, new ConcurrentHashMap<>());
        meters.put(started.hostId(), registered);
        followRules(registered, engine);
    }

    /** A push may change the rules: meters come for the rules it added and go for those it removed. */
    @EventListener
    void engineReconfigured(EngineLifecycle.Reconfigured reconfigured) {
        var registered = meters.get(reconfigured.hostId());
        if (registered != null) {
            followRules(registered, reconfigured.engine());
        }
    }

    /** One packets, bytes and connections counter per rule the engine runs, tagged with the rule's id. */
    private synchronized void followRules(Registered registered, HostEngine engine) {
        Set<Integer> running = new HashSet<>();
        engine.config().firewallRules().forEach(r -> running.add(r.id()));
        registered.ruleIds().entrySet().removeIf(rule -> {
            boolean gone = !running.contains(rule.getKey());
            if (gone) {
                rule.getValue().forEach(registry::remove);
            }
            return gone;
        });
        for (int id : running) {
            registered.ruleIds().computeIfAbsent(id, rule -> {
                var tags = registered.host().and("rule", Integer.toString(rule));
                var rules = registered.rules();
                List<Meter.Id> ids = new ArrayList<>();
                ruleCounter(ids, "edp.firewall.rule.packets", "Packets the rule decided, fast-path hits included",
                        tags, rules, rule, RuleStats::packets);
                ruleCounter(ids, "edp.firewall.rule.bytes", "Bytes of the packets the rule decided", tags, rules, rule,
                        RuleStats::bytes);
                ruleCounter(ids, "edp.firewall.rule.connections", "Connections the rule allowed to start", tags,
                        rules, rule, RuleStats::connections);
                return List.copyOf(ids);
            });
        }
    }

    private void ruleCounter(List<Meter.Id> ids, String name, String description, Tags tags,
                             Snapshot<Map<Integer, RuleStats>> rules, int rule, ToLongFunction<RuleStats> value) {
        ids.add(FunctionCounter.builder(name, rules, s -> {
            RuleStats stats = s.get().get(rule);
            return stats == null ? 0 : value.applyAsLong(stats);
        }).description(description).tags(tags).register(registry).getId());
    }

    private static Map<Integer, RuleStats> byId(List<RuleStats> stats) {
        Map<Integer, RuleStats> map = new HashMap<>();
        stats.forEach(r -> map.put(r.ruleId(), r));
        return map;
    }

    private void counter(List<Meter.Id> ids, String name, String description, Tags tags,
                         Snapshot<EngineStats> snapshots, ToLongFunction<EngineStats> value) {
        ids.add(FunctionCounter.builder(name, snapshots, s -> value.applyAsLong(s.get()))
                .description(description).tags(tags).register(registry).getId());
    }

    private void routerReply(List<Meter.Id> ids, String kind, Tags host, Snapshot<EngineStats> snapshots,
                             ToLongFunction<EngineStats> value) {
        counter(ids, "edp.router.replies", "Packets the router sent itself (ARP, neighbor advertisement, echo "
                + "reply, time exceeded, packet too big)", host.and("kind", kind), snapshots, value);
    }

    @EventListener
    void engineStopped(EngineLifecycle.Stopped stopped) {
        removeMeters(stopped.hostId());
    }

    private void removeMeters(UUID hostId) {
        var registered = meters.remove(hostId);
        if (registered != null) {
            registered.ids().forEach(registry::remove);
            registered.ruleIds().values().forEach(ids -> ids.forEach(registry::remove));
        }
    }
}
