package io.edp.engine.telemetry;

import io.edp.engine.time.Clock;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * An engine's IPFIX exporting process: a thread of its own that drains every worker's {@link FlowRecords}, packs
 * the records into messages of at most the configured MTU and sends each message over UDP to every collector.
 * Templates go first, again every {@link IpfixConfig#templateRefreshMillis()} (RFC 7011 §8.4) and after a
 * change of settings; the header's sequence number counts the data records sent in the observation domain. The
 * workers never wait for it: what their rings could not take is counted there.
 */
public final class IpfixExporter implements AutoCloseable {

    private static final long IDLE_PARK_NANOS = 1_000_000;
    private static final int TEMPLATES_PER_MESSAGE = 2;

    private final FlowMeter[] meters;
    private final Clock clock;
    private final DatagramChannel channel;
    private final Thread thread;
    /** Unix time and engine-clock time of one instant: records carry engine-clock times. */
    private final long anchorEpochMillis;
    private final int anchorEngineMillis;
    private volatile boolean running = true;

    // written by whoever holds the monitor (the exporter thread, or a caller of configure/close)
    private IpfixConfig config;
    private IpfixMessage message;
    private long sequence;
    private int templatesSentAtMillis;
    private boolean templatesDue = true;
    private volatile long recordsExported;
    private volatile long messagesSent;
    private volatile long templatesSent;
    private volatile long exportErrors;

    public IpfixExporter(IpfixConfig config, FlowMeter[] meters, Clock clock) {
        this.meters = meters.clone();
        this.clock = clock;
        this.config = config;
        this.message = new IpfixMessage(config.mtu());
        this.anchorEpochMillis = System.currentTimeMillis();
        this.anchorEngineMillis = engineMillis();
        try {
            this.channel = DatagramChannel.open();
        } catch (IOException e) {
            throw new UncheckedIOException("ipfix: cannot open a UDP socket", e);
        }
        this.thread = Thread.ofPlatform().name("edp-ipfix-exporter").daemon(true).start(this::run);
    }

    /** The exporter thread's id, so a benchmark can charge its CPU time. */
    public long threadId() {
        return thread.threadId();
    }

    /**
     * Sends what the workers handed over under the current settings (call after every worker adopted
     * {@code next}: their last records under the old settings are then in the rings), then exports under
     * {@code next}, templates first.
     */
    public synchronized void configure(IpfixConfig next) {
        exportWaiting();
        if (next.mtu() != config.mtu()) {
            message = new IpfixMessage(next.mtu());
        }
        config = next;
        templatesDue = true;
    }

    public IpfixStats stats(long flowsActive) {
        long dropped = 0;
        for (FlowMeter m : meters) {
            FlowRecords r = m.records();
            dropped += r == null ? 0 : r.dropped();
        }
        return new IpfixStats(config.enabled(), recordsExported, messagesSent, templatesSent, exportErrors, dropped,
                flowsActive);
    }

    private void run() {
        while (running) {
            int exported;
            synchronized (this) {
                exported = exportWaiting();
            }
            if (exported == 0) {
                LockSupport.parkNanos(IDLE_PARK_NANOS);
            }
        }
    }

    /** Sends every record waiting in the rings (and the templates when due); returns the records taken. */
    private int exportWaiting() {
        IpfixConfig c = config;
        int now = engineMillis();
        if (c.enabled() && (templatesDue || now - templatesSentAtMillis >= c.templateRefreshMillis())) {
            sendTemplates(c, now);
        }
        int taken = 0;
        message.begin(System.currentTimeMillis() / 1000, sequence, c.observationDomainId());
        for (FlowMeter meter : meters) {
            FlowRecords ring = meter.records();
            int n = ring == null ? 0 : ring.available();
            for (int i = 0; i < n && c.enabled(); i++) {
                int at = ring.at(i);
                if (!message.putRecord(ring.words(), at, anchorEpochMillis, anchorEngineMillis)) {
                    send(c);
                    message.begin(System.currentTimeMillis() / 1000, sequence, c.observationDomainId());
                    message.putRecord(ring.words(), at, anchorEpochMillis, anchorEngineMillis);
                }
            }
            if (n > 0) {
                ring.release(n);
                taken += n;
            }
        }
        if (message.records() > 0) {
            send(c);
        }
        return taken;
    }

    private void sendTemplates(IpfixConfig c, int now) {
        message.begin(System.currentTimeMillis() / 1000, sequence, c.observationDomainId());
        message.putTemplates();
        send(c);
        templatesSent += TEMPLATES_PER_MESSAGE;
        templatesSentAtMillis = now;
        templatesDue = false;
    }

    /** Sends the message to every collector; its data records advance the sequence number once. */
    private void send(IpfixConfig c) {
        int records = message.records();
        ByteBuffer datagram = message.finish();
        List<InetSocketAddress> collectors = c.collectors();
        for (int i = 0; i < collectors.size(); i++) {
            datagram.rewind();
            try {
                if (channel.send(datagram, collectors.get(i)) == 0) {
                    exportErrors++;
                } else {
                    messagesSent++;
                }
            } catch (IOException e) {
                exportErrors++;
            }
        }
        sequence = (sequence + records) & 0xFFFF_FFFFL;
        recordsExported += records;
    }

    private int engineMillis() {
        return (int) (clock.nanoTime() / 1_000_000);
    }

    /** Stops the thread, then sends what is left in the rings (close the workers first: they flush into them). */
    @Override
    public void close() {
        running = false;
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        synchronized (this) {
            exportWaiting();
        }
        try {
            channel.close();
        } catch (IOException e) {
            exportErrors++;
        }
    }
}
