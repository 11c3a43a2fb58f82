package io.edp.engine.worker;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.management.JMException;
import javax.management.ObjectName;

/**
 * Where the worker's per-packet code splits into compile units, told to HotSpot's JIT once per JVM as a compiler
 * directive. C2 stops inlining a unit's own calls once it has created about 18,000 nodes (its
 * {@code NodeCountInliningCutoff}), and each off-heap access costs it about 900. A hit makes about 30 such
 * accesses, more than one unit holds: compiled as one unit, the rewrite's and the staging's calls past the cutoff
 * stayed calls, four or five a packet. So {@link BurstPipeline} splits it: {@code lookUp} (the flow cache's part
 * and the miss path) is one unit, the burst's loop keeps the rest inline. Whether C2 inlines {@code lookUp} into the
 * loop anyway depends on timing (whether it has compiled code of its own when the loop compiles), and then the
 * staging was a call again: runs at 125,000 flows without this directive fell into two groups, 109–120 and 131–141
 * ns a packet. The directive fixes the split: no method of this package inlines {@code lookUp}, and {@code lookUp}
 * always inlines {@code FastPath.lookup} (in some JVMs C2 had compiled it on its own first and called it). The
 * burst's other stages ({@code touch}, {@code parse}, {@code warm}, {@code warmConnections}) are units of their
 * own too, called once a burst: inlined into {@code process}, the loops took 4,000–7,000 of its nodes, and
 * LEGACY's unit came within 1,400 of the cutoff (in one CI run of a test, over it). The parse stage inlines the
 * parser whole ({@code FrameParser.parse} with its IPv4 path: {@code ipv4}, {@code transport}, {@code finish}),
 * which C2 otherwise compiled on its own and called, once a packet, and in some JVMs called its IPv4 path from
 * there: a call with 11 arguments, in some a second with 20 (docs/engine.md, the pipeline). Installed through the
 * DiagnosticCommand MBean (what {@code jcmd Compiler.directives_add} calls); a JVM without it keeps its own
 * choices, which only costs speed.
 */
final class CompileUnits {

    private static final System.Logger LOG = System.getLogger(CompileUnits.class.getName());

    /**
     * The directive: for every method of this package compiled, BurstPipeline.lookUp and the burst's other stages
     * are not inlined, and FastPath.lookup and the parser with its IPv4 path are.
     */
    static final String DIRECTIVE = "[{ match: \"io/edp/engine/worker/*.*\", inline: ["
            + "\"-io/edp/engine/worker/BurstPipeline.lookUp\", \"+io/edp/engine/worker/FastPath.lookup\","
            + " \"-io/edp/engine/worker/BurstPipeline.touch\", \"-io/edp/engine/worker/BurstPipeline.parse\","
            + " \"-io/edp/engine/worker/BurstPipeline.warm\", \"-io/edp/engine/worker/BurstPipeline.warmConnections\","
            + " \"+io/edp/engine/packet/FrameParser.parse\", \"+io/edp/engine/packet/FrameParser.ipv4\","
            + " \"+io/edp/engine/packet/FrameParser.transport\", \"+io/edp/engine/packet/FrameParser.finish\"] }]";

    private static boolean installed;

    private CompileUnits() {
    }

    /** Adds the directive unless this JVM has it already; returns whether it is in place. */
    static synchronized boolean install() {
        if (!installed) {
            installed = add();
        }
        return installed;
    }

    private static boolean add() {
        Path file = null;
        try {
            file = Files.createTempFile("edp-compile-units", ".json");
            Files.writeString(file, DIRECTIVE);
            Object added = diagnosticCommand("compilerDirectivesAdd", file.toString());
            LOG.log(System.Logger.Level.DEBUG, "compiler directive: {0}", added);
            return true;
        } catch (IOException | JMException | RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "the JIT keeps its own compile units (slower fast path): " + e);
            return false;
        } finally {
            if (file != null) {
                try {
                    Files.deleteIfExists(file);
                } catch (IOException e) {
                    LOG.log(System.Logger.Level.DEBUG, "could not delete " + file + ": " + e);
                }
            }
        }
    }

    /** Runs a DiagnosticCommand operation (jcmd's, in camel case) with {@code arguments}; returns its output. */
    static Object diagnosticCommand(String operation, String... arguments) throws JMException {
        return ManagementFactory.getPlatformMBeanServer().invoke(
                new ObjectName("com.sun.management:type=DiagnosticCommand"), operation,
                new Object[] {arguments}, new String[] {String[].class.getName()});
    }
}
