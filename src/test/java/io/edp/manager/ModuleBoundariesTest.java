package io.edp.manager;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.springframework.modulith.core.ApplicationModules;
import org.springframework.modulith.core.Violation;

/**
 * The manager's feature packages ({@code io.edp.manager.*}) are its modules (Spring Modulith): each may use another
 * only through that module's top-level package, never a type in one of its sub-packages, and no modules may depend
 * on each other in a cycle. The engine is a library outside the modules; {@code engines} is the one module that
 * reaches it ({@code HostEngines}).
 *
 * <p>One cycle is known and allowed, {@code edp} ↔ {@code realization}: {@code EngineMemoryBudget} (realization)
 * admits a write by the EDP settings, the EDP services ask it before they write, and {@code DesiredState} builds
 * the engine's configuration from the effective settings. The test fails when it goes, so the allowance goes too.
 */
class ModuleBoundariesTest {

    private static final ApplicationModules MODULES = ApplicationModules.of("io.edp.manager");
    private static final Set<String> KNOWN_CYCLE = Set.of("edp", "realization");
    private static final Pattern SLICE = Pattern.compile("Slice (\\w+)");

    @Test
    void modulesUseEachOtherOnlyThroughTheirTopLevelPackageAndOnlyTheKnownCycleRemains() {
        var violations = MODULES.detectViolations();

        violations.filter(v -> !knownCycle(v)).throwIfPresent();
        assertThat(violations.filter(ModuleBoundariesTest::knownCycle).getMessages()).hasSize(1);
    }

    /** The cycle between exactly the modules of {@link #KNOWN_CYCLE}. */
    private static boolean knownCycle(Violation violation) {
        String message = violation.getMessage();
        if (!message.startsWith("Cycle detected")) {
            return false;
        }
        var cycle = message.substring(0, message.indexOf("1. Dependencies"));
        Set<String> slices = new TreeSet<>();
        SLICE.matcher(cycle).results().forEach(m -> slices.add(m.group(1)));
        return slices.equals(KNOWN_CYCLE);
    }
}
