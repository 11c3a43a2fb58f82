package io.edp.manager;

import org.junit.jupiter.api.Test;
import org.springframework.modulith.core.ApplicationModules;

/**
 * The manager's feature packages ({@code io.edp.manager.*}) are its modules (Spring Modulith): each may use another
 * only through that module's top-level package, never a type in one of its sub-packages, and no modules may depend
 * on each other in a cycle. The engine is a library outside the modules; {@code engines} is the one module that
 * reaches it ({@code HostEngines}). The inventory and the EDP settings ask the realization to admit a write through
 * an interface of their own ({@code host.EngineAdmission}), so the realization, which reads both, is not a cycle.
 */
class ModuleBoundariesTest {

    @Test
    void modulesUseEachOtherOnlyThroughTheirTopLevelPackageWithoutCycles() {
        ApplicationModules.of("io.edp.manager").verify();
    }
}
