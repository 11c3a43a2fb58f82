package io.edp.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What C2 makes of the hit path, read from its inlining log ({@code -Xlog:jit+inlining}) of a bench case forked as a
 * user runs it: no call of a flow-cache hit, and none of LEGACY's rewrite and staging, is left out of its compile
 * unit by C2's node budget ({@code NodeCountInliningCutoff}). One more off-heap access on the hit path can push a call
 * past that budget and cost a few ns a packet without failing anything else (docs/engine.md, the pipeline). The
 * install's calls may stay calls: they run on misses only. And the calls the worker's compiler directive inlines are
 * inlined where they are made (the flow cache's lookup into {@code lookUp}, the parser into the parse stage):
 * without it, C2 compiled them on their own first, in some JVMs or all, and called them.
 */
class HitPathInliningTest {

    /**
     * One line of the log: flags and indentation up to the {@code @} (its column is the inlining depth), the call's
     * bytecode index, the callee, the verdict. The log has no line between two compiles: a compile's own calls are
     * the lines at the smallest depth.
     */
    private static final Pattern CALL = Pattern.compile("^([^@]*)@ \\d+\\s+(\\S+)\\s.*");
    /** Calls under these run on misses only. */
    private static final String MISSES_ONLY = "io.edp.engine.worker.FastPath::install";
    /** A refusal with one of these among its callers is on the hit path. */
    private static final List<String> HIT_PATH = List.of("io.edp.engine.worker.BurstPipeline::rewrite",
            "io.edp.engine.worker.FastPath::lookup", "io.edp.engine.slowpath.RuleCounters::count",
            "io.edp.engine.packet.FrameParser::parse");

    /**
     * The calls the worker's compiler directive inlines where they are made ({@code CompileUnits}): each is called by
     * one method of the worker's only (the flow cache's lookup by {@code lookUp}, the parser by the parse stage), so
     * a call of it at a compile's own depth is that method's compile. Both methods are compiled on their own, never
     * inlined: the log shows their calls, not them. The parser's IPv4 path is not listed: C2 also inlines it into a
     * compile of the parser alone, whose lines the log does not set apart from the parse stage's (one CI run's
     * reconstruction of its callers crossed from one compile into the other); the budget check covers it.
     */
    private static final String LOOKUP = "io.edp.engine.worker.FastPath::lookup";
    private static final String PARSER = "io.edp.engine.packet.FrameParser::parse";
    private static final String FORCED = "force inline by CompileCommand";

    @TempDir
    Path directory;

    @ParameterizedTest
    @ValueSource(strings = {"floor", "standard-64", "legacy-64"})
    void noCallOfAHitIsLeftToTheNodeBudget(String benchCase) throws Exception {
        Path log = directory.resolve("inlining.log");
        ForkedJvm.ofClassPath(List.of("-Xlog:jit+inlining=debug:file=" + log + "::filecount=0"))
                .run(List.of("bench", "engine", "--run-case=" + benchCase, "--warm-up-ms=2500", "--window-ms=300"),
                        Duration.ofMinutes(2));

        List<String> lines = Files.readAllLines(log);
        assertThat(lines).as("the JIT logged its inlining").anyMatch(line -> line.contains(HIT_PATH.getFirst()));
        assertThat(refusedOnTheHitPath(lines)).isEmpty();
        boolean legacy = benchCase.startsWith("legacy"); // never looks the flow cache up
        for (String directed : legacy ? List.of(PARSER) : List.of(LOOKUP, PARSER)) {
            assertThat(directedCalls(lines, directed)).as("%s inlined where it is called, as directed", directed)
                    .isNotEmpty().allMatch(call -> call.endsWith(FORCED));
        }
    }

    /** The logged calls of {@code directed} at a compile's own depth, with their verdicts. */
    private static List<String> directedCalls(List<String> lines, String directed) {
        int top = top(lines);
        return lines.stream().map(CALL::matcher)
                .filter(call -> call.matches() && call.group(2).equals(directed) && call.group(1).length() == top)
                .map(call -> call.group().strip()).toList();
    }

    /** Each call refused for the node budget with a hit-path method among its callers, as "callee <- callers". */
    private static List<String> refusedOnTheHitPath(List<String> lines) {
        int top = top(lines);
        List<String> refused = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            if (!lines.get(i).contains("NodeCountInliningCutoff")) {
                continue;
            }
            Matcher call = CALL.matcher(lines.get(i));
            if (!call.matches()) {
                continue;
            }
            List<String> callers = callers(lines, i, call.group(1).length(), top);
            if (!callers.contains(MISSES_ONLY) && callers.stream().anyMatch(HIT_PATH::contains)) {
                refused.add(call.group(2) + " <- " + String.join(" <- ", callers));
            }
        }
        return refused;
    }

    /** The depth of a compile's own calls: the smallest in the log. */
    private static int top(List<String> lines) {
        return lines.stream().map(CALL::matcher).filter(Matcher::matches).mapToInt(call -> call.group(1).length())
                .min().orElse(0);
    }

    /**
     * The inlined methods the call on line {@code at} sits in, innermost first: the lines above it less deep, up to
     * its compile's own calls (depth {@code top}).
     */
    private static List<String> callers(List<String> lines, int at, int depth, int top) {
        List<String> callers = new ArrayList<>();
        for (int j = at - 1; j >= 0 && depth > top; j--) {
            Matcher caller = CALL.matcher(lines.get(j));
            if (!caller.matches()) {
                break;
            }
            if (caller.group(1).length() < depth) {
                callers.add(caller.group(2));
                depth = caller.group(1).length();
            }
        }
        return callers;
    }
}
