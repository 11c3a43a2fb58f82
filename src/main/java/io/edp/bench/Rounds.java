package io.edp.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * How an in-process bench that interleaves its cases round by round is run ({@code --rounds=N},
 * {@code --window-ms=N}, both positive) and where it leaves its figures: a JSON array of one object a case in
 * {@code target/bench/<bench>.json}.
 */
record Rounds(int rounds, long windowMillis) {

    /**
     * {@code options} over {@code defaults}; null, after telling {@code err} which option and the usage, when one is
     * not {@code --rounds} or {@code --window-ms} with a positive value.
     */
    static Rounds parse(String bench, String usage, List<String> options, Rounds defaults, PrintStream err) {
        Rounds parsed = defaults;
        for (String option : options) {
            String[] nameValue = option.split("=", 2);
            if (nameValue.length != 2 || !nameValue[1].matches("[1-9]\\d{0,6}")) {
                err.println("bench " + bench + ": bad option " + option + " (" + usage + ")");
                return null;
            }
            switch (nameValue[0]) {
                case "--rounds" -> parsed = new Rounds(Integer.parseInt(nameValue[1]), parsed.windowMillis());
                case "--window-ms" -> parsed = new Rounds(parsed.rounds(), Long.parseLong(nameValue[1]));
                default -> {
                    err.println("bench " + bench + ": unknown option " + option + " (" + usage + ")");
                    return null;
                }
            }
        }
        return parsed;
    }

    /** Writes {@code rows} (JSON objects) as the array {@code target/bench/<bench>.json} and says so on {@code out}. */
    static void write(String bench, List<String> rows, PrintStream out) {
        Path json = Path.of("target", "bench", bench + ".json");
        try {
            Files.createDirectories(json.getParent());
            Files.writeString(json, "[\n  " + String.join(",\n  ", rows) + "\n]\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        out.println("wrote " + json);
    }
}
