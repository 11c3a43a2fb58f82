package io.edp.engine.worker;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class CompileUnitsTest {

    @Test
    void theJvmHoldsTheDirectiveOnceHoweverManyWorkersInstallIt() throws Exception {
        assertThat(CompileUnits.install()).isTrue();
        assertThat(CompileUnits.install()).isTrue();

        String directives = (String) CompileUnits.diagnosticCommand("compilerDirectivesPrint");
        assertThat(directives.split("matching: io/edp/engine/worker/\\*\\.\\*\\R", -1)).hasSize(2);
        assertThat(directives).contains("-io/edp/engine/worker/BurstPipeline.lookUp",
                "+io/edp/engine/packet/FrameParser.ipv4");
    }

    /** A renamed method or class would leave its directive matching nothing, silently. */
    @Test
    void everyMethodTheDirectivesNameExists() throws Exception {
        Matcher named = Pattern.compile("\"[+-]?(io/edp/[\\w/]+)\\.(\\w+)\"").matcher(CompileUnits.DIRECTIVE);
        List<String> methods = new ArrayList<>();
        while (named.find()) {
            Class<?> type = Class.forName(named.group(1).replace('/', '.'));
            assertThat(Arrays.stream(type.getDeclaredMethods()).map(Method::getName))
                    .as(named.group()).contains(named.group(2));
            methods.add(type.getSimpleName() + "." + named.group(2));
        }
        assertThat(methods).containsExactlyInAnyOrder("BurstPipeline.lookUp", "FastPath.lookup",
                "BurstPipeline.touch", "BurstPipeline.parse", "BurstPipeline.warm", "BurstPipeline.warmConnections",
                "FrameParser.parse", "FrameParser.ipv4", "FrameParser.transport", "FrameParser.finish");
        assertThat(Arrays.stream(BurstPipeline.class.getDeclaredMethods()).map(Method::getName))
                .containsOnlyOnce("lookUp", "touch", "parse", "warm", "warmConnections");
    }
}
