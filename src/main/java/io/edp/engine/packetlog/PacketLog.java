package io.edp.engine.packetlog;

import io.edp.engine.time.Clock;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * The engine's distributed-firewall packet log: one {@link PacketLogWriter} per worker and one for the engine's
 * control path ({@link #control()}: the TERM lines of cleared connections), and a drainer thread
 * ({@code edp-packet-log}) that, while the log is enabled, empties their rings every
 * {@link #DRAIN_INTERVAL_NANOS}, formats each record ({@link LogLine}) and hands the line to every output: syslog
 * servers over UDP or TCP ({@link SyslogMessage}) and the local rotating file. Workers never wait for it; what it
 * cannot deliver is counted. Control methods are serialized with the drainer.
 */
public final class PacketLog implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(PacketLog.class.getName());
    private static final long DRAIN_INTERVAL_NANOS = 10_000_000;

    private final Clock clock;
    private final PacketLogWriter[] writers;
    private final String hostName = hostName();
    private final StringBuilder line = new StringBuilder(256);
    private final Thread drainer;
    private volatile PacketLogConfig config;
    private LogLine.Ports ports;
    private List<LogOutput> outputs = List.of();
    private long written;
    private long outputErrors;
    private volatile boolean closed;

    /** A packet log for {@code workers} workers; its drainer thread runs unless {@code stepped}. */
    public PacketLog(int workers, Clock clock, boolean stepped) {
        this.clock = clock;
        this.config = PacketLogConfig.DISABLED;
        this.ports = new LogLine.Ports(new String[0], new boolean[0]);
        this.writers = new PacketLogWriter[workers + 1];
        for (int i = 0; i < writers.length; i++) {
            writers[i] = new PacketLogWriter(config.linesPerSecond());
        }
        drainer = stepped ? null : Thread.ofPlatform().name("edp-packet-log").daemon(true).start(this::run);
    }

    /** The drainer's thread id, -1 when stepped (a benchmark charges its CPU time). */
    public long threadId() {
        return drainer == null ? -1 : drainer.threadId();
    }

    public PacketLogWriter writer(int worker) {
        return writers[worker];
    }

    /** The writer of the engine's control path, beside the workers'; one caller at a time (the engine's lock). */
    public PacketLogWriter control() {
        return writers[writers.length - 1];
    }

    /**
     * Takes a new configuration and the engine's ports ({@code names} by port id, {@code uplinks} by port id).
     * Outputs are reopened only when they changed; an output that cannot be opened is logged and counted as an
     * error, the others still run.
     */
    public synchronized void configure(PacketLogConfig next, String[] names, boolean[] uplinks) {
        ports = new LogLine.Ports(names.clone(), uplinks.clone());
        if (next.equals(config) && !outputs.isEmpty()) {
            return;
        }
        drain();
        outputs.forEach(LogOutput::close);
        config = next;
        for (PacketLogWriter w : writers) {
            w.limit(next.linesPerSecond());
        }
        List<LogOutput> opened = new ArrayList<>();
        if (next.enabled()) {
            for (PacketLogConfig.SyslogServer s : next.servers()) {
                InetSocketAddress address = new InetSocketAddress(s.host(), s.port());
                try {
                    opened.add(s.transport() == PacketLogConfig.Transport.UDP ? new SyslogUdp(address, hostName)
                            : new SyslogTcp(address, hostName));
                } catch (IOException e) {
                    failed("syslog server " + s.host() + ":" + s.port(), e);
                }
            }
            if (next.file() != null) {
                try {
                    opened.add(new RotatingFile(Path.of(next.file()), next.fileMaxBytes(), next.fileCount()));
                } catch (IOException e) {
                    failed("packet log file " + next.file(), e);
                }
            }
        }
        outputs = List.copyOf(opened);
        if (next.enabled() && drainer != null) {
            LockSupport.unpark(drainer);
        }
    }

    /** Delivers every queued line now and flushes the outputs (the drainer does this every 10 ms while enabled). */
    public synchronized void flush() {
        drain();
        for (LogOutput o : outputs) {
            try {
                o.flush();
            } catch (IOException e) {
                outputErrors++;
            }
        }
    }

    public synchronized PacketLogStats stats() {
        long queued = 0;
        long suppressed = 0;
        long lost = 0;
        for (PacketLogWriter w : writers) {
            queued += w.counters().read(PacketLogWriter.QUEUED);
            suppressed += w.counters().read(PacketLogWriter.SUPPRESSED);
            lost += w.counters().read(PacketLogWriter.LOST);
        }
        return new PacketLogStats(config.enabled(), queued, suppressed, lost, written, outputErrors);
    }

    /** Stops the drainer, delivers what is queued and closes the outputs. */
    @Override
    public void close() {
        closed = true;
        if (drainer != null) {
            LockSupport.unpark(drainer);
            try {
                drainer.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        synchronized (this) {
            flush();
            outputs.forEach(LogOutput::close);
            outputs = List.of();
        }
    }

    private void run() {
        while (!closed) {
            try {
                flush();
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "packet log drain failed", e);
            }
            // a disabled log has nothing to deliver (its rules' log flags are cleared, and configure drains what
            // was queued before): the drainer sleeps until configure enables it, so that an idle manager's hundred
            // engines do not each wake a hundred times a second
            if (config.enabled()) {
                LockSupport.parkNanos(DRAIN_INTERVAL_NANOS);
            } else {
                LockSupport.park(this);
            }
        }
    }

    /** Formats and delivers every queued record; a line with no output is still taken off its ring. */
    private void drain() {
        int nowMillis = (int) (clock.nanoTime() / 1_000_000);
        long wallNow = System.currentTimeMillis();
        for (PacketLogWriter w : writers) {
            w.ring().drain((r, base) -> deliver(r, base, wallNow - (nowMillis - (int) (r[base + 1] >>> 32))));
        }
    }

    private void deliver(long[] r, int base, long wallMillis) {
        if (outputs.isEmpty()) {
            return;
        }
        line.setLength(0);
        LogLine.append(line, r, base, wallMillis, ports);
        String text = line.toString();
        for (LogOutput o : outputs) {
            try {
                o.write(text, wallMillis);
                written++;
            } catch (IOException e) {
                outputErrors++;
            }
        }
    }

    private void failed(String what, IOException e) {
        outputErrors++;
        LOG.log(System.Logger.Level.WARNING, what + " cannot be opened: " + e);
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "-"; // RFC 5424's nil value
        }
    }
}
