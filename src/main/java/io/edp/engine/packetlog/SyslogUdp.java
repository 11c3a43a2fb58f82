package io.edp.engine.packetlog;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.charset.StandardCharsets;

/** RFC 5424 over UDP (RFC 5426): one message a datagram. */
final class SyslogUdp implements LogOutput {

    private final DatagramChannel channel;
    private final InetSocketAddress server;
    private final String hostName;

    SyslogUdp(InetSocketAddress server, String hostName) throws IOException {
        this.server = server;
        this.hostName = hostName;
        this.channel = DatagramChannel.open();
    }

    @Override
    public void write(String line, long wallMillis) throws IOException {
        channel.send(ByteBuffer.wrap(SyslogMessage.of(hostName, line, wallMillis).getBytes(StandardCharsets.UTF_8)),
                server);
    }

    @Override
    public void flush() {
        // every message left as its own datagram
    }

    @Override
    public void close() {
        try {
            channel.close();
        } catch (IOException e) {
            // nothing is left to send
        }
    }
}
