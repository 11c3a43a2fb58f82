package io.edp;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The engine is plain Java: it must run alone as an agent, and its hot path must not meet a framework. It may not
 * depend on Spring, JPA/Hibernate or the manager. The rule also holds while the engine package is still empty.
 * The manager, for its part, touches a live engine only in its {@code engines} module.
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

    @ArchTest
    static final ArchRule onlyTheEnginesModuleHoldsALiveEngineObject = noClasses()
            .that().resideInAPackage("io.edp.manager..").and().resideOutsideOfPackage("io.edp.manager.engines..")
            .should().dependOnClassesThat().haveFullyQualifiedName("io.edp.engine.Engine")
            .orShould().dependOnClassesThat().haveFullyQualifiedName("io.edp.engine.capture.CaptureSession")
            .orShould().dependOnClassesThat().haveFullyQualifiedName("io.edp.engine.nic.loopback.TrafficGenerator")
            .orShould().dependOnClassesThat().haveFullyQualifiedName("io.edp.engine.packetlog.PacketLog")
            .because("the rest of the manager reaches an engine through HostEngine, in records, so that the engine "
                    + "can run in this process or in an agent (docs/realization.md)");
}
