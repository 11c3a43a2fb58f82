package io.edp;

import io.edp.bench.BenchCommand;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

@SpringBootApplication
public class EdpApplication {

    public static void main(String[] args) {
        // plain-Java commands run without starting Spring
        if (args.length > 0 && args[0].equals("bench")) {
            System.exit(BenchCommand.run(java.util.Arrays.copyOfRange(args, 1, args.length)));
        }
        SpringApplication.run(EdpApplication.class, args);
    }
}
