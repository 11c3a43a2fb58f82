package io.edp;

import io.edp.bench.BenchCommand;
import io.edp.cli.EngineCommand;
import java.util.Arrays;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

@SpringBootApplication
public class EdpApplication {

    public static void main(String[] args) {
        // plain-Java commands run without starting Spring
        if (args.length > 0 && args[0].equals("bench")) {
            System.exit(BenchCommand.run(Arrays.copyOfRange(args, 1, args.length)));
        }
        if (args.length > 0 && args[0].equals("engine")) {
            System.exit(EngineCommand.run(Arrays.copyOfRange(args, 1, args.length)));
        }
        SpringApplication.run(EdpApplication.class, args);
    }
}
