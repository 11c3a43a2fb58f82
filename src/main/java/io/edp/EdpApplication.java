package io.edp;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

@SpringBootApplication
public class EdpApplication {

    public static void main(String[] args) {
        SpringApplication.run(EdpApplication.class, args);
    }
}
