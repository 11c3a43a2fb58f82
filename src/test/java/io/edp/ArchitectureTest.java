package io.edp;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The engine is plain Java: it must run alone as an agent, and its hot path must not meet a framework. It may not
 * depend on Spring, JPA/Hibernate or the manager. The rule also holds while the engine package is still empty.
 */
@AnalyzeClasses(packages = "io.edp", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

    @ArchTest
    static final ArchRule engineDependsOnNoFrameworkNorTheManager = noClasses()
            .that().resideInAPackage("io.edp.engine..")
            .should().dependOnClassesThat().resideInAnyPackage(
                    "org.springframework..", "jakarta.persistence..", "org.hibernate..", "io.edp.manager..")
            .allowEmptyShould(true)
            .because("the engine runs without Spring, a database or the manager (DESIGN.md, Layout)");
}
