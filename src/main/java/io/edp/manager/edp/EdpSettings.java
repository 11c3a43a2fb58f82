package io.edp.manager.edp;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.edp.engine.config.ConfigRules;
import io.edp.engine.FlowCacheConfig;
import io.edp.engine.Mode;
import io.edp.engine.StormControl;
import io.edp.engine.packetlog.PacketLogConfig;
import io.edp.engine.telemetry.IpfixConfig;
import io.edp.engine.tlb.TlbConfig;
import io.edp.manager.api.FieldProblem;
import io.edp.manager.api.InvalidRequestException;
import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

/**
 * EDP settings of a host or a profile. Every field may be left out (null): a host's own value wins over its
 * profile's, a profile's over the default ({@link #DEFAULTS}); see {@link #over}.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Schema(description = "EDP settings; a field left out (or null) is inherited: the host's own value over its "
        + "profile's over the default declared here")
public record EdpSettings(
        @Schema(description = "Data-path mode: LEGACY (every packet through the IOChain), EDP_STANDARD (flow-cache "
                + "fast path, workers sleep when idle) or EDP_DEDICATED (fast path, workers busy-poll). Case does not "
                + "matter; NSX's ENS_INTERRUPT (= EDP_STANDARD) and ENS (= EDP_DEDICATED) are accepted too and "
                + "stored by the EDP name; a bare STANDARD is ambiguous and refused",
                allowableValues = {"LEGACY", "EDP_STANDARD", "EDP_DEDICATED"}, example = "EDP_STANDARD")
        @Size(max = 32) String mode,
        @Schema(description = "Worker threads (EDP_DEDICATED: lcores) per NUMA node id; default one on each NUMA node "
                + "that has a physical NIC", example = "{\"0\": 2}", maxProperties = 64)
        @Size(max = 64) Map<@NotNull @Min(0) Integer, @NotNull @Min(0) @Max(64) Integer> workersPerNumaNode,
        @Schema(description = "Flow-cache entries per worker: a power of two, 4 to 524,288", example = "131072")
        @Min(4) @Max(524_288) Integer flowCacheSize,
        @Schema(description = "Staged expiry: a flow-cache entry lives a random time in [min, max] seconds",
                example = "90")
        @Min(1) @Max(86_400) Integer flowExpiryMinSeconds,
        @Schema(description = "Staged expiry: the upper end of the window, at least flowExpiryMinSeconds",
                example = "150")
        @Min(1) @Max(86_400) Integer flowExpiryMaxSeconds,
        @Schema(description = "Live verifier: one fast-path hit in N is re-evaluated by the slow path (without side "
                + "effects) and compared with the cached action; 0 = off", example = "0")
        @Min(0) @Max(1_000_000) Integer verifierSampleRate,
        @Schema(description = "Thread Load Balancer on or off", example = "true")
        Boolean tlbEnabled,
        @Schema(description = "TLB period in seconds", example = "4")
        @Min(1) @Max(3_600) Integer tlbIntervalSeconds,
        @Schema(description = "TLB rebalances when a worker is at or over this utilization", example = "70")
        @Min(1) @Max(100) Integer tlbThresholdPercent,
        @Schema(description = "A new queue assignment is applied only if it lowers the peak load by this much",
                example = "25")
        @Min(0) @Max(100) Integer tlbImprovementPercent,
        @Schema(description = "Firewall packet logging") @Valid DfwLoggingSettings dfwLogging,
        @Schema(description = "IPFIX flow export to every IPFIX collector (/api/v1/ipfix-collectors); see "
                + "docs/telemetry.md", example = "false")
        Boolean telemetryIpfix,
        @Schema(description = "IPFIX: a flow that lasts this long is exported, and counted afresh", example = "60")
        @Min(60) @Max(3_600) Integer ipfixActiveTimeoutSeconds,
        @Schema(description = "IPFIX: a flow without a packet for this long is exported", example = "15")
        @Min(10) @Max(600) Integer ipfixIdleTimeoutSeconds,
        @Schema(description = "IPFIX: 0 counts every packet, N one in N", example = "0")
        @Min(0) @Max(1_000) Integer ipfixSampling,
        @Schema(description = "IPFIX: flows each worker's flow table tracks at once (LEGACY, and packets the flow "
                + "cache does not count); a power of two", example = "65536")
        @Min(16) @Max(1_048_576) Integer ipfixMaxFlows,
        @Schema(description = "IPFIX: the observation domain id of this host's messages", example = "1")
        @Min(0) @Max(4_294_967_295L) Long ipfixObservationDomainId,
        @Schema(description = "Storm control: broadcast and multicast frames each worker floods per second; frames "
                + "beyond are dropped (edp_flood_rate_limited_total)", example = "10000")
        @Min(1) @Max(StormControl.MAX_FRAMES_PER_SECOND) Integer stormControlFramesPerSecond,
        @Schema(description = "Storm control: flooded frames a worker may send at once above the rate",
                example = "1000")
        @Min(1) @Max(StormControl.MAX_BURST) Integer stormControlBurst) {

    /** The seed's defaults; workersPerNumaNode stays null: it depends on the host's NICs. */
    public static final EdpSettings DEFAULTS = new EdpSettings(Mode.LEGACY.name(), null, 131_072, 90, 150, 0, true, 4,
            70, 25, DfwLoggingSettings.DEFAULTS, false, IpfixConfig.DEFAULT_ACTIVE_TIMEOUT_MILLIS / 1000,
            IpfixConfig.DEFAULT_IDLE_TIMEOUT_MILLIS / 1000, 0, IpfixConfig.DEFAULT_MAX_FLOWS, 0L,
            StormControl.DEFAULT.framesPerSecond(), StormControl.DEFAULT.burst());

    /** The engine's names of the settings ({@link ConfigRules}) and the API's. */
    private static final Map<String, String> API_FIELDS = Map.of(
            "flowCache.capacity", "flowCacheSize",
            "flowCache.minExpiry", "flowExpiryMinSeconds",
            "flowCache.verifierSampleRate", "verifierSampleRate",
            "tlb.interval", "tlbIntervalSeconds",
            "tlb.threshold", "tlbThresholdPercent",
            "tlb.improvementThreshold", "tlbImprovementPercent");

    static final EdpSettings NONE = new EdpSettings(null, null, null, null, null, null, null, null, null, null, null,
            null, null, null, null, null, null, null, null);

    /** These settings where set, {@code base}'s elsewhere. */
    public EdpSettings over(EdpSettings base) {
        return new EdpSettings(
                mode != null ? mode : base.mode,
                workersPerNumaNode != null ? workersPerNumaNode : base.workersPerNumaNode,
                flowCacheSize != null ? flowCacheSize : base.flowCacheSize,
                flowExpiryMinSeconds != null ? flowExpiryMinSeconds : base.flowExpiryMinSeconds,
                flowExpiryMaxSeconds != null ? flowExpiryMaxSeconds : base.flowExpiryMaxSeconds,
                verifierSampleRate != null ? verifierSampleRate : base.verifierSampleRate,
                tlbEnabled != null ? tlbEnabled : base.tlbEnabled,
                tlbIntervalSeconds != null ? tlbIntervalSeconds : base.tlbIntervalSeconds,
                tlbThresholdPercent != null ? tlbThresholdPercent : base.tlbThresholdPercent,
                tlbImprovementPercent != null ? tlbImprovementPercent : base.tlbImprovementPercent,
                DfwLoggingSettings.over(dfwLogging, base.dfwLogging),
                telemetryIpfix != null ? telemetryIpfix : base.telemetryIpfix,
                ipfixActiveTimeoutSeconds != null ? ipfixActiveTimeoutSeconds : base.ipfixActiveTimeoutSeconds,
                ipfixIdleTimeoutSeconds != null ? ipfixIdleTimeoutSeconds : base.ipfixIdleTimeoutSeconds,
                ipfixSampling != null ? ipfixSampling : base.ipfixSampling,
                ipfixMaxFlows != null ? ipfixMaxFlows : base.ipfixMaxFlows,
                ipfixObservationDomainId != null ? ipfixObservationDomainId : base.ipfixObservationDomainId,
                stormControlFramesPerSecond != null ? stormControlFramesPerSecond : base.stormControlFramesPerSecond,
                stormControlBurst != null ? stormControlBurst : base.stormControlBurst);
    }

    /** IPFIX export as the engine takes it: off unless switched on and there is a collector; effective only. */
    public IpfixConfig ipfixConfig(List<InetSocketAddress> collectors) {
        if (!telemetryIpfix || collectors.isEmpty()) {
            return IpfixConfig.DISABLED;
        }
        return new IpfixConfig(collectors, ipfixObservationDomainId, ipfixActiveTimeoutSeconds * 1000,
                ipfixIdleTimeoutSeconds * 1000, ipfixSampling, ipfixMaxFlows, IpfixConfig.DEFAULT_MTU,
                IpfixConfig.DEFAULT_TEMPLATE_REFRESH_MILLIS);
    }

    /** Storm control on flooded frames as the engine takes it; effective only. */
    public StormControl stormControl() {
        return new StormControl(stormControlFramesPerSecond, stormControlBurst);
    }

    /** The mode as the engine knows it; only call on checked settings. */
    public Mode engineMode() {
        return Mode.valueOf(mode);
    }

    /** The flow cache as the engine takes it; only call on effective settings. */
    public FlowCacheConfig flowCacheConfig() {
        return new FlowCacheConfig(flowCacheSize, Duration.ofSeconds(flowExpiryMinSeconds),
                Duration.ofSeconds(flowExpiryMaxSeconds), verifierSampleRate);
    }

    /** The TLB as the engine takes it (quiet time after moves and history: the engine's defaults); effective only. */
    public TlbConfig tlbConfig() {
        return new TlbConfig(tlbEnabled, Duration.ofSeconds(tlbIntervalSeconds), tlbThresholdPercent / 100.0,
                tlbImprovementPercent / 100.0, TlbConfig.DEFAULTS.minTimeBetweenMoves(),
                TlbConfig.DEFAULTS.historySize());
    }

    /**
     * The packet log as the engine takes it, sending to {@code servers}, its file in {@code directory}; only call
     * on effective settings.
     */
    public PacketLogConfig packetLogConfig(List<PacketLogConfig.SyslogServer> servers, Path directory) {
        return dfwLogging.engineConfig(servers, directory);
    }

    /**
     * Checks the fields that are set against the engine's own rules ({@link ConfigRules}), so that what is accepted
     * an engine can run, plus the mode's name; returns the settings with the mode in its canonical name, or throws
     * 400 listing every bad field under {@code prefix}. On effective settings every rule applies.
     */
    EdpSettings checked(String prefix) {
        var problems = new ArrayList<FieldProblem>();
        String canonicalMode = mode;
        if (mode != null) {
            try {
                canonicalMode = Mode.parse(mode).name();
            } catch (IllegalArgumentException e) {
                problems.add(new FieldProblem(prefix + "mode", e.getMessage()));
            }
        }
        if (dfwLogging != null) {
            dfwLogging.check(prefix, problems);
        }
        if (ipfixMaxFlows != null && Integer.bitCount(ipfixMaxFlows) != 1) {
            problems.add(new FieldProblem(prefix + "ipfixMaxFlows", "must be a power of two: " + ipfixMaxFlows));
        }
        for (var violation : engineViolations()) {
            problems.add(new FieldProblem(prefix + API_FIELDS.getOrDefault(violation.field(), violation.field()),
                    violation.message()));
        }
        if (!problems.isEmpty()) {
            throw new InvalidRequestException(problems);
        }
        return new EdpSettings(canonicalMode, workersPerNumaNode == null ? null : new TreeMap<>(workersPerNumaNode),
                flowCacheSize, flowExpiryMinSeconds, flowExpiryMaxSeconds, verifierSampleRate, tlbEnabled,
                tlbIntervalSeconds, tlbThresholdPercent, tlbImprovementPercent, dfwLogging, telemetryIpfix,
                ipfixActiveTimeoutSeconds, ipfixIdleTimeoutSeconds, ipfixSampling, ipfixMaxFlows,
                ipfixObservationDomainId, stormControlFramesPerSecond, stormControlBurst);
    }

    /** The engine's rules broken by the fields set here; a rule over two fields applies when both are set. */
    private List<ConfigRules.Violation> engineViolations() {
        var violations = new ArrayList<ConfigRules.Violation>();
        if (workersPerNumaNode != null) {
            violations.addAll(ConfigRules.workers(workersPerNumaNode));
        }
        if (flowCacheSize != null) {
            violations.addAll(ConfigRules.flowCacheCapacity(flowCacheSize));
        }
        if (flowExpiryMinSeconds != null && flowExpiryMaxSeconds != null) {
            violations.addAll(ConfigRules.expiryWindow(Duration.ofSeconds(flowExpiryMinSeconds),
                    Duration.ofSeconds(flowExpiryMaxSeconds)));
        }
        if (verifierSampleRate != null) {
            violations.addAll(ConfigRules.verifierSampleRate(verifierSampleRate));
        }
        // the TLB rules are one per field: a field left out is checked as its (valid) default
        var tlb = over(DEFAULTS);
        violations.addAll(ConfigRules.tlb(Duration.ofSeconds(tlb.tlbIntervalSeconds), tlb.tlbThresholdPercent / 100.0,
                tlb.tlbImprovementPercent / 100.0));
        return violations;
    }
}
