package io.edp.agent;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP relay on a port of 127.0.0.1 to a target port: what an agent reaches its manager through, so that a test
 * can cut the link ({@link #sever}: the port refuses connections and every relayed one is closed, as when the
 * manager's machine is unreachable) and mend it on the same port ({@link #restore}).
 */
final class TcpRelay implements AutoCloseable {

    private final int target;
    private final int port;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private volatile ServerSocket server;

    TcpRelay(int target) throws IOException {
        this.target = target;
        this.server = listen(0);
        this.port = server.getLocalPort();
        accept(server);
    }

    int port() {
        return port;
    }

    /** Refuses new connections and closes every relayed one. */
    synchronized void sever() throws IOException {
        server.close();
        for (var socket : sockets) {
            socket.close();
        }
        sockets.clear();
    }

    /** Listens again on the same port. */
    synchronized void restore() throws IOException {
        server = listen(port);
        accept(server);
    }

    @Override
    public void close() throws IOException {
        sever();
    }

    private static ServerSocket listen(int port) throws IOException {
        var socket = new ServerSocket();
        socket.setReuseAddress(true); // the port again at once, though relayed connections closed just now
        socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        return socket;
    }

    private void accept(ServerSocket listening) {
        Thread.ofVirtual().name("relay-accept").start(() -> {
            while (!listening.isClosed()) {
                try {
                    var in = listening.accept();
                    var out = new Socket(InetAddress.getLoopbackAddress(), target);
                    synchronized (this) { // not one that sever() missed
                        sockets.add(in);
                        sockets.add(out);
                        if (listening.isClosed()) {
                            close(in);
                            close(out);
                            return;
                        }
                    }
                    pump(in, out);
                    pump(out, in);
                } catch (IOException e) {
                    // closed by sever(), or one connection failed: the client sees it closed
                }
            }
        });
    }

    /** Copies one direction until either side closes, then closes both. */
    private void pump(Socket from, Socket to) {
        Thread.ofVirtual().name("relay-pump").start(() -> {
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                in.transferTo(out);
            } catch (IOException e) {
                // severed, or the other side closed
            } finally {
                close(from);
                close(to);
            }
        });
    }

    private void close(Socket socket) {
        sockets.remove(socket);
        try {
            socket.close();
        } catch (IOException e) {
            // closed already
        }
    }
}
