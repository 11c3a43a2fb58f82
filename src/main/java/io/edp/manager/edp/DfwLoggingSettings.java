package io.edp.manager.edp;

import java.nio.file.Path;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.edp.engine.packetlog.PacketLogConfig;
import io.edp.manager.api.FieldProblem;
import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Size;

/**
 * Firewall packet logging of a host or a profile. As every EDP setting, a field left out is inherited (host over
 * profile over {@link #DEFAULTS}), field by field; see {@link #over}.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Schema(description = "Firewall packet logging: rules flagged log write lines to the syslog servers "
        + "(/api/v1/syslog-servers) and the local file; a field left out is inherited")
public record DfwLoggingSettings(
        @Schema(description = "Whether logged rules write lines at all", example = "true")
        Boolean enabled,
        @Schema(description = "Lines each worker may write per second (bursts of as many); more are counted as "
                + "suppressed", example = "1000")
        @Min(1) @Max(PacketLogConfig.MAX_LINES_PER_SECOND) Integer linesPerSecond,
        @Schema(description = "Name of a file the lines are appended to, in the manager's packet-log directory "
                + "(edp.packet-log.dir); empty: none", example = "esx-01.dfwpktlogs.log")
        @Size(max = 255) String file,
        @Schema(description = "The file is rotated when it would grow past this many MiB", example = "10")
        @Min(1) @Max(1_024) Integer fileMaxMegabytes,
        @Schema(description = "Rotated files kept (file.1 … file.N)", example = "5")
        @Min(1) @Max(100) Integer fileCount) {

    static final DfwLoggingSettings DEFAULTS = new DfwLoggingSettings(false,
            PacketLogConfig.DEFAULT_LINES_PER_SECOND, "", (int) (PacketLogConfig.DEFAULT_FILE_MAX_BYTES >> 20),
            PacketLogConfig.DEFAULT_FILE_COUNT);

    /** These settings where set, {@code base}'s elsewhere; either may be null (nothing set). */
    static DfwLoggingSettings over(DfwLoggingSettings top, DfwLoggingSettings base) {
        if (top == null || base == null) {
            return top == null ? base : top;
        }
        return new DfwLoggingSettings(
                top.enabled != null ? top.enabled : base.enabled,
                top.linesPerSecond != null ? top.linesPerSecond : base.linesPerSecond,
                top.file != null ? top.file : base.file,
                top.fileMaxMegabytes != null ? top.fileMaxMegabytes : base.fileMaxMegabytes,
                top.fileCount != null ? top.fileCount : base.fileCount);
    }

    /** Adds a problem under {@code prefix} for a file that is not a plain name (no directory, no ".."). */
    void check(String prefix, List<FieldProblem> problems) {
        if (file != null && !file.isEmpty() && !file.matches("[A-Za-z0-9_-][A-Za-z0-9._-]*")) {
            problems.add(new FieldProblem(prefix + "dfwLogging.file", "must be a file name (letters, digits, '.', "
                    + "'_', '-'; no directory) in the packet-log directory, or empty for none: " + file));
        }
    }

    /**
     * The packet log as the engine takes it, sending to {@code servers} and writing its file in {@code directory};
     * effective settings only.
     */
    PacketLogConfig engineConfig(List<PacketLogConfig.SyslogServer> servers, Path directory) {
        return new PacketLogConfig(enabled, servers, file.isEmpty() ? null : directory.resolve(file).toString(),
                (long) fileMaxMegabytes << 20, fileCount, linesPerSecond);
    }
}
