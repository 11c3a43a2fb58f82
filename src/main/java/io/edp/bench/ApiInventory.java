package io.edp.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The inventory {@code bench api} reads, made over REST: N hosts, each with two NUMA nodes, labels, a loopback physical
 * NIC and two VMs, the first with a virtual NIC (each NIC is an engine port with a 6 MiB traffic sink). The first is
 * the busy host: EDP_STANDARD with one worker, a run of 65,536 UDP flows through it (then stopped) into a flow cache of
 * that size and an expiry longer than the bench, so its flow cache stays full and its top-flows snapshot holds 1,024
 * flows. The others keep LEGACY with a 4,096-entry flow cache, so that a hundred engines fit the default memory budget.
 * Every host carries the label {@code edp-bench=api}: a run first deletes what an interrupted one left.
 */
final class ApiInventory {

    static final String LABEL = "edp-bench";
    /** Flows of the busy host: as many as its connection table holds (65,536 by default), and its cache size. */
    private static final int FLOWS = 65_536;
    private static final Pattern ENTRIES = Pattern.compile("\"entries\":(\\d+),\"capacity\":(\\d+)");

    private final BenchRest rest;
    private final List<String> hosts = new ArrayList<>();

    private ApiInventory(BenchRest rest) {
        this.rest = rest;
    }

    /** Makes the inventory; on failure deletes what it made. */
    static ApiInventory load(BenchRest rest, int hostCount, PrintStream out) throws IOException, InterruptedException {
        var inventory = new ApiInventory(rest);
        deleteBenchHosts(rest);
        try {
            for (int i = 0; i < hostCount; i++) {
                inventory.hosts.add(inventory.host(i));
            }
            inventory.fill(out);
            return inventory;
        } catch (IOException | InterruptedException | RuntimeException e) {
            inventory.delete();
            throw e;
        }
    }

    /** The host whose statistics are read: an engine in EDP_STANDARD with a full flow cache. */
    String busyHost() {
        return hosts.getFirst();
    }

    void delete() throws IOException, InterruptedException {
        for (String host : hosts) {
            rest.send("DELETE", "/api/v1/hosts/" + host, null);
        }
        hosts.clear();
    }

    /** Deletes every host labelled {@value #LABEL}: what an interrupted bench left. */
    static void deleteBenchHosts(BenchRest rest) throws IOException, InterruptedException {
        for (String page = list(rest); page.contains("\"id\""); page = list(rest)) {
            for (Matcher id = Pattern.compile("\\{\"id\":\"([0-9a-f-]{36})\"").matcher(page); id.find(); ) {
                rest.send("DELETE", "/api/v1/hosts/" + id.group(1), null);
            }
        }
    }

    private static String list(BenchRest rest) throws IOException, InterruptedException {
        return rest.send("GET", "/api/v1/hosts?size=100&label=" + LABEL, null);
    }

    private String host(int i) throws IOException, InterruptedException {
        var host = BenchRest.id(rest.send("POST", "/api/v1/hosts", String.format(Locale.ROOT, """
                {"name": "bench-api-%03d", "managementAddress": "10.%d.%d.%d",
                 "numaNodes": [{"id": 0, "cpuCores": [0, 1, 2, 3, 4, 5, 6, 7]},
                               {"id": 1, "cpuCores": [8, 9, 10, 11, 12, 13, 14, 15]}],
                 "labels": {"%s": "api", "rack": "r%02d", "role": "%s"}}""", i, 200 + i / 65_536,
                i / 256 % 256, i % 256, LABEL, i / 20, i % 4 == 0 ? "edge" : "compute")));
        rest.send("PUT", "/api/v1/hosts/" + host + "/edp", i == 0
                ? """
                {"settings": {"mode": "EDP_STANDARD", "workersPerNumaNode": {"0": 1}, "flowCacheSize": %d,
                 "flowExpiryMinSeconds": 86400, "flowExpiryMaxSeconds": 86400}}""".formatted(FLOWS)
                : """
                {"settings": {"flowCacheSize": 4096}}""");
        rest.send("POST", "/api/v1/hosts/" + host + "/pnics", """
                {"name": "vmnic0", "numaNode": 0, "speedMbps": 25000, "rxQueues": 1, "rss": false,
                 "driver": {"kind": "loopback"}}""");
        var vm = BenchRest.id(rest.send("POST", "/api/v1/hosts/" + host + "/vms", """
                {"name": "vm-0", "vcpus": 2, "numaNode": 0}"""));
        rest.send("POST", "/api/v1/hosts/" + host + "/vms/" + vm + "/vnics", """
                {"mac": "%s", "vlan": 0, "adapterType": "VMXNET3", "rxQueues": 1}""".formatted(mac(i)));
        rest.send("POST", "/api/v1/hosts/" + host + "/vms", """
                {"name": "vm-1", "vcpus": 4, "numaNode": 1}""");
        return host;
    }

    private static String mac(int host) {
        return String.format(Locale.ROOT, "00:50:56:00:%02x:%02x", host >> 8 & 0xff, host & 0xff);
    }

    /** Sends the busy host's flows once each, twice over, and waits until its flow cache has taken them. */
    private void fill(PrintStream out) throws IOException, InterruptedException {
        var stats = "/api/v1/hosts/" + busyHost() + "/stats/flow-cache";
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (rest.status(stats) != 200) {
            awaitOrFail(deadline, "the busy host's engine did not start");
        }
        rest.send("POST", "/api/v1/hosts/" + busyHost() + "/traffic", """
                {"nic": "vmnic0", "flows": %d, "packets": %d, "destinationMac": "%s"}"""
                .formatted(FLOWS, 2L * FLOWS, mac(0)));
        while (rest.send("GET", "/api/v1/hosts/" + busyHost() + "/traffic", null).contains("\"running\":true")) {
            awaitOrFail(deadline, "the busy host's traffic did not end");
        }
        var entries = ENTRIES.matcher(rest.send("GET", stats, null));
        if (!entries.find()) {
            throw new IllegalStateException("no flow-cache entries in " + stats);
        }
        out.printf(Locale.ROOT, "bench api: %d hosts loaded; the busy host's flow cache holds %,d of %,d entries%n",
                hosts.size(), Long.parseLong(entries.group(1)), Long.parseLong(entries.group(2)));
    }

    private static void awaitOrFail(long deadline, String failure) {
        if (System.nanoTime() > deadline) {
            throw new IllegalStateException(failure + " within 60 s");
        }
        LockSupport.parkNanos(50_000_000);
    }
}
