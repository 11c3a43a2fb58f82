package io.edp.engine.worker;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Method;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class CompileUnitsTest {

    @Test
    void theJvmHoldsTheDirectiveOnceHoweverManyWorkersInstallIt() throws Exception {
        assertThat(CompileUnits.install()).isTrue();
        assertThat(CompileUnits.install()).isTrue();

        String directives = (String) CompileUnits.diagnosticCommand("compilerDirectivesPrint");
        assertThat(directives.split("matching: io/edp/engine/worker/\\*\\.\\*\\R", -1)).hasSize(2);
        assertThat(directives).contains("inline: -io/edp/engine/worker/BurstPipeline.lookUp");
    }

    /** A renamed method would leave the directive matching nothing, silently. */
    @Test
    void theMethodTheDirectiveKeepsApartIsThePipelinesLookup() {
        assertThat(Arrays.stream(BurstPipeline.class.getDeclaredMethods()).map(Method::getName))
                .containsOnlyOnce("lookUp");
        assertThat(CompileUnits.DIRECTIVE).contains(BurstPipeline.class.getName().replace('.', '/') + ".lookUp");
    }
}
