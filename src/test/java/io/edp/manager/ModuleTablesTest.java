package io.edp.manager;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * Each table belongs to one module, and a module's SQL names only its own tables — and {@code host}, which every
 * per-host table keys on (its id, name and placement are what other modules join on). A module reads another's
 * data through that module's Java API: the realization builds a host's desired state from the host module's
 * {@code HostInventories} and the EDP module's effective settings, never by SQL over their tables.
 */
class ModuleTablesTest {

    private static final Map<String, String> OWNER = Map.ofEntries(
            Map.entry("host", "host"), Map.entry("host_label", "host"), Map.entry("host_list_version", "host"),
            Map.entry("host_numa_node", "host"), Map.entry("physical_nic", "host"),
            Map.entry("virtual_nic", "host"), Map.entry("vm", "host"),
            Map.entry("host_agent", "agent"), Map.entry("engine_request", "agent"),
            Map.entry("edp_profile", "edp"), Map.entry("host_edp", "edp"),
            Map.entry("host_realization", "realization"),
            Map.entry("firewall_rule", "firewall"), Map.entry("route", "routing"),
            Map.entry("segment_gateway", "routing"), Map.entry("ipfix_collector", "telemetry"),
            Map.entry("syslog_server", "packetlog"), Map.entry("audit_event", "audit"),
            Map.entry("account", "account"), Map.entry("agent_capture", "capture"));
    private static final Path MODULES = Path.of("src/main/java/io/edp/manager");
    private static final Pattern CREATE_TABLE = Pattern.compile("CREATE TABLE (?:IF NOT EXISTS )?(\\w+)",
            Pattern.CASE_INSENSITIVE);
    /** A string literal or text block of Java source. */
    private static final Pattern LITERAL = Pattern.compile("\"\"\"(.*?)\"\"\"|\"((?:[^\"\\\\\\n]|\\\\.)*)\"",
            Pattern.DOTALL);
    private static final Pattern TABLE_REFERENCE = Pattern.compile("\\b(?:FROM|JOIN|UPDATE|INTO|TABLE)\\s+(\\w+)",
            Pattern.CASE_INSENSITIVE);

    @Test
    void everyTableOfTheMigrationsHasAnOwner() throws IOException {
        Set<String> created = new TreeSet<>();
        try (Stream<Path> migrations = Files.list(Path.of("db/migration"))) {
            for (var migration : migrations.toList()) {
                CREATE_TABLE.matcher(Files.readString(migration)).results().forEach(m -> created.add(m.group(1)));
            }
        }
        assertThat(created).isEqualTo(new TreeSet<>(OWNER.keySet()));
    }

    @Test
    void aModulesSqlNamesOnlyItsOwnTablesAndHost() throws IOException {
        Map<String, Set<String>> foreign = new TreeMap<>();
        try (Stream<Path> sources = Files.walk(MODULES)) {
            for (var source : sources.filter(p -> p.toString().endsWith(".java")).toList()) {
                var relative = MODULES.relativize(source);
                String module = relative.getNameCount() > 1 ? relative.getName(0).toString() : "";
                for (var table : tablesNamedIn(Files.readString(source))) {
                    if (!table.equals("host") && !OWNER.get(table).equals(module)) {
                        foreign.computeIfAbsent(relative.toString(), f -> new TreeSet<>()).add(table);
                    }
                }
            }
        }
        assertThat(foreign).as("files naming another module's tables").isEmpty();
    }

    @Test
    void theRealizationNamesTheTablesItReadsForTheDesiredStateNoMore() throws IOException {
        // the check above sees a table only where SQL names it: make sure it would see the desired state's reads
        assertThat(tablesNamedIn(Files.readString(MODULES.resolve("host/HostInventories.java"))))
                .contains("host", "physical_nic", "virtual_nic", "vm", "host_numa_node");
        assertThat(tablesNamedIn(Files.readString(MODULES.resolve("realization/DesiredState.java")))).isEmpty();
    }

    /** Known tables that SQL in {@code source}'s literals reads or writes. */
    private static Set<String> tablesNamedIn(String source) {
        Set<String> tables = new TreeSet<>();
        LITERAL.matcher(source).results().forEach(literal -> {
            String text = literal.group(1) != null ? literal.group(1) : literal.group(2);
            TABLE_REFERENCE.matcher(text).results().map(m -> m.group(1).toLowerCase())
                    .filter(OWNER::containsKey).forEach(tables::add);
        });
        return tables;
    }
}
