package io.edp.bench;

import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * A closed-loop HTTP/1.1 load generator in the manner of wrk: N keep-alive connections, each sending its next GET as
 * soon as it has read the last answer, for a warm-up and then a measured window. It writes one prepared request
 * and reads the answer's headers and body (Content-Length or chunked) off a plain socket: a few microseconds of CPU
 * per request, so that on a machine shared with the manager the generator takes little from what it measures.
 */
final class HttpLoad {

    private HttpLoad() {
    }

    /**
     * Drives {@code GET target} of {@code base} over {@code connections} connections: {@code warmUp} unmeasured,
     * then {@code window} measured (answers that began in the window; those not 2xx are errors).
     */
    static LoadResult run(URI base, String target, String authorization, int connections, Duration warmUp,
                      Duration window) throws IOException, InterruptedException {
        byte[] request = ("GET " + target + " HTTP/1.1\r\nHost: " + base.getHost() + ":" + base.getPort()
                + "\r\nAuthorization: " + authorization + "\r\nAccept: application/json\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII);
        var address = new InetSocketAddress(base.getHost(), base.getPort());
        long start = System.nanoTime() + warmUp.toNanos();
        long end = start + window.toNanos();
        List<long[]> latencies = new ArrayList<>();
        long errors = 0;
        try (ExecutorService pool = Executors.newFixedThreadPool(connections)) {
            List<Future<Connection>> running = new ArrayList<>();
            for (int c = 0; c < connections; c++) {
                running.add(pool.submit(() -> new Connection(address, request).drive(start, end)));
            }
            for (Future<Connection> connection : running) {
                Connection done = connection.get();
                latencies.add(Arrays.copyOf(done.latencies, done.count));
                errors += done.errors;
            }
        } catch (ExecutionException e) {
            throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
        }
        long[] all = latencies.stream().flatMapToLong(Arrays::stream).sorted().toArray();
        return new LoadResult(all.length, errors, window.toNanos() / 1e9, percentileMillis(all, 0.50),
                percentileMillis(all, 0.99));
    }

    private static double percentileMillis(long[] sortedNanos, double fraction) {
        return sortedNanos.length == 0 ? 0
                : sortedNanos[Math.max(0, (int) Math.ceil(sortedNanos.length * fraction) - 1)] / 1e6;
    }

    /** One keep-alive connection and what it recorded; reconnects when the server closes it. */
    private static final class Connection {

        private final InetSocketAddress address;
        private final byte[] request;
        private Socket socket;
        private OutputStream output;
        private InputStream input;
        private long[] latencies = new long[4096];
        private int count;
        private long errors;

        Connection(InetSocketAddress address, byte[] request) {
            this.address = address;
            this.request = request;
        }

        Connection drive(long start, long end) throws IOException {
            try {
                for (long t0 = System.nanoTime(); t0 < end; t0 = System.nanoTime()) {
                    int status = exchange();
                    if (t0 >= start) {
                        if (count == latencies.length) {
                            latencies = Arrays.copyOf(latencies, count * 2);
                        }
                        latencies[count++] = System.nanoTime() - t0;
                        errors += status / 100 == 2 ? 0 : 1;
                    }
                }
                return this;
            } finally {
                if (socket != null) {
                    socket.close();
                }
            }
        }

        /** Sends the request and reads the whole answer; its status. */
        private int exchange() throws IOException {
            if (socket == null) {
                socket = new Socket();
                socket.setTcpNoDelay(true);
                socket.connect(address, 5_000);
                socket.setSoTimeout(30_000);
                output = socket.getOutputStream();
                input = new BufferedInputStream(socket.getInputStream(), 1 << 16);
            }
            output.write(request);
            output.flush();
            String statusLine = line();
            int status = Integer.parseInt(statusLine.substring(9, 12));
            long length = -1;
            boolean chunked = false;
            boolean close = false;
            for (String header = line(); !header.isEmpty(); header = line()) {
                int colon = header.indexOf(':');
                String name = header.substring(0, colon).trim();
                String value = header.substring(colon + 1).trim();
                if (name.equalsIgnoreCase("Content-Length")) {
                    length = Long.parseLong(value);
                } else if (name.equalsIgnoreCase("Transfer-Encoding")) {
                    chunked = value.equalsIgnoreCase("chunked");
                } else if (name.equalsIgnoreCase("Connection")) {
                    close = value.equalsIgnoreCase("close");
                }
            }
            if (chunked) {
                for (long size = chunkSize(); size > 0; size = chunkSize()) {
                    skip(size);
                    line();
                }
                while (!line().isEmpty()) {
                    // trailers
                }
            } else if (length > 0) {
                skip(length);
            }
            if (close) {
                socket.close();
                socket = null;
            }
            return status;
        }

        private long chunkSize() throws IOException {
            String size = line();
            int extension = size.indexOf(';');
            return Long.parseLong(extension < 0 ? size : size.substring(0, extension), 16);
        }

        private void skip(long bytes) throws IOException {
            input.skipNBytes(bytes);
        }

        /** A header line without its CRLF. */
        private String line() throws IOException {
            var line = new StringBuilder(64);
            for (int b = input.read(); b != '\n'; b = input.read()) {
                if (b < 0) {
                    throw new EOFException("the server closed the connection mid-answer");
                }
                if (b != '\r') {
                    line.append((char) b);
                }
            }
            return line.toString();
        }
    }
}
