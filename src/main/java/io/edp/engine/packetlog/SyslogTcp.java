package io.edp.engine.packetlog;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * RFC 5424 over TCP with octet-counting framing (RFC 6587: {@code LENGTH SP MESSAGE}). A broken connection is
 * dropped; the next line reconnects, at most once a second so an absent server does not hold up the drainer.
 */
final class SyslogTcp implements LogOutput {

    private static final int CONNECT_TIMEOUT_MILLIS = 1_000;
    private static final long RECONNECT_INTERVAL_MILLIS = 1_000;

    private final InetSocketAddress server;
    private final String hostName;
    private Socket socket;
    private OutputStream out;
    private long lastAttemptMillis = Long.MIN_VALUE / 2;

    SyslogTcp(InetSocketAddress server, String hostName) {
        this.server = server;
        this.hostName = hostName;
    }

    @Override
    public void write(String line, long wallMillis) throws IOException {
        connect(wallMillis);
        byte[] message = SyslogMessage.of(hostName, line, wallMillis).getBytes(StandardCharsets.UTF_8);
        try {
            out.write((message.length + " ").getBytes(StandardCharsets.US_ASCII));
            out.write(message);
        } catch (IOException e) {
            close();
            throw e;
        }
    }

    private void connect(long wallMillis) throws IOException {
        if (out != null) {
            return;
        }
        if (wallMillis - lastAttemptMillis < RECONNECT_INTERVAL_MILLIS) {
            throw new IOException("syslog server " + server + " unreachable; retrying within a second");
        }
        lastAttemptMillis = wallMillis;
        Socket s = new Socket();
        try {
            s.connect(server, CONNECT_TIMEOUT_MILLIS);
        } catch (IOException e) {
            s.close();
            throw e;
        }
        socket = s;
        out = new BufferedOutputStream(s.getOutputStream(), 64 * 1024);
    }

    @Override
    public void flush() throws IOException {
        if (out != null) {
            try {
                out.flush();
            } catch (IOException e) {
                close();
                throw e;
            }
        }
    }

    @Override
    public void close() {
        try {
            if (socket != null) {
                socket.close();
            }
        } catch (IOException e) {
            // the connection is gone either way
        }
        socket = null;
        out = null;
    }
}
