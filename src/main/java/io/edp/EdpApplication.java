package io.edp;

import io.edp.agent.AgentCommand;
import io.edp.bench.BenchCommand;
import io.edp.bench.PushBenchmark;
import io.edp.cli.EngineCommand;
import io.edp.engine.process.FatalErrors;
import java.util.Arrays;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

@SpringBootApplication
public class EdpApplication {

    public static void main(String[] args) {
        FatalErrors.installProcessHandler(); // an OutOfMemoryError halts the process instead of leaving it hung
        // bench push measures the manager itself, so it starts Spring in-process
        if (args.length > 1 && args[0].equals("bench") && args[1].equals("push")) {
            System.exit(PushBenchmark.run(System.out));
        }
        // plain-Java commands run without starting Spring
        if (args.length > 0 && args[0].equals("bench")) {
            System.exit(BenchCommand.run(Arrays.copyOfRange(args, 1, args.length)));
        }
        if (args.length > 0 && args[0].equals("agent")) {
            System.exit(AgentCommand.run(Arrays.copyOfRange(args, 1, args.length)));
        }
        if (args.length > 0 && args[0].equals("engine")) {
            System.exit(EngineCommand.run(Arrays.copyOfRange(args, 1, args.length)));
        }
        SpringApplication.run(EdpApplication.class, args);
    }
}
