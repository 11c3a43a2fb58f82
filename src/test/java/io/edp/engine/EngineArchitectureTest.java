package io.edp.engine;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** The engine is plain Java: no Spring, no JPA, nothing from the manager; its packages form no cycle with the TLB. */
class EngineArchitectureTest {

    private final JavaClasses engine = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.edp.engine");

    @Test
    void theEngineDependsOnNeitherSpringNorJpaNorTheManager() {
        noClasses().that().resideInAPackage("io.edp.engine..")
                .should().dependOnClassesThat().resideInAnyPackage("org.springframework..", "jakarta.persistence..",
                        "org.hibernate..", "io.edp.manager..")
                .check(engine);
    }

    @Test
    void theBalancerDoesNotDependOnTheEngineThatOwnsIt() {
        noClasses().that().resideInAPackage("io.edp.engine.tlb..")
                .should().dependOnClassesThat().resideInAPackage("io.edp.engine")
                .check(engine);
    }
}
