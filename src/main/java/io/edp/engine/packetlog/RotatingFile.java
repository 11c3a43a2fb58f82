package io.edp.engine.packetlog;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * Lines appended to a local file that is rotated by size: when the next line would take it past
 * {@code maxBytes}, {@code file} becomes {@code file.1} (and {@code file.1} {@code file.2}, …, the oldest beyond
 * {@code count} dropped) and a new file starts.
 */
final class RotatingFile implements LogOutput {

    private final Path path;
    private final long maxBytes;
    private final int count;
    private BufferedWriter out;
    private long size;

    RotatingFile(Path path, long maxBytes, int count) throws IOException {
        this.path = path;
        this.maxBytes = maxBytes;
        this.count = count;
        Path parent = path.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        open();
    }

    private void open() throws IOException {
        out = Files.newBufferedWriter(path, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                StandardOpenOption.APPEND);
        size = Files.size(path);
    }

    @Override
    public void write(String line, long wallMillis) throws IOException {
        long bytes = line.getBytes(StandardCharsets.UTF_8).length + 1L;
        if (size > 0 && size + bytes > maxBytes) {
            rotate();
        }
        out.write(line);
        out.write('\n');
        size += bytes;
    }

    private void rotate() throws IOException {
        out.close();
        Files.deleteIfExists(numbered(count));
        for (int i = count - 1; i >= 1; i--) {
            if (Files.exists(numbered(i))) {
                Files.move(numbered(i), numbered(i + 1), StandardCopyOption.REPLACE_EXISTING);
            }
        }
        Files.move(path, numbered(1), StandardCopyOption.REPLACE_EXISTING);
        open();
    }

    private Path numbered(int i) {
        return path.resolveSibling(path.getFileName() + "." + i);
    }

    @Override
    public void flush() throws IOException {
        out.flush();
    }

    @Override
    public void close() {
        try {
            out.close();
        } catch (IOException e) {
            // what could not be written is lost with the file
        }
    }
}
