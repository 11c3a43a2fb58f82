package io.edp.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.edp.engine.FlowFrames.Ingress;
import io.edp.engine.ModelNetwork.Flow;
import io.edp.engine.ModelNetwork.Pair;
import io.edp.engine.ModelNetwork.Protocol;
import io.edp.engine.ModelNetwork.Tagging;
import io.edp.engine.nic.NicDrivers;
import io.edp.engine.nic.loopback.LoopbackNic;
import io.edp.engine.packet.FlowKey;
import io.edp.engine.packetlog.PacketLogConfig;
import io.edp.engine.packetlog.PacketLogConfig.SyslogServer;
import io.edp.engine.packetlog.PacketLogConfig.Transport;
import io.edp.engine.packetlog.PacketLogStats;
import io.edp.engine.slowpath.ConnectionFilter;
import io.edp.engine.time.ManualClock;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packet log against a real syslog server: rsyslogd (Debian's), started here on private UDP and TCP ports
 * with its own configuration and work directory, stores every message from app {@code edp} with the input it
 * came through. Known traffic through a real engine (TCP connections closed by FIN and by RST, UDP conversations
 * that time out, UDP a logged rule drops, a UDP conversation a rule change no longer allows, one cleared from the
 * connection table) must come back as exactly one line per connection start and end (per
 * dropped packet), over each transport, in the NSX field order, with each direction's packets on TERM.
 */
class PacketLogSyslogTest {

    private static final Path RSYSLOGD = Path.of("/usr/sbin/rsyslogd");
    private static final Duration DEADLINE = Duration.ofSeconds(20);

    @TempDir
    Path dir;
    private Process rsyslogd;
    private int udpPort;
    private int tcpPort;
    private Path received;

    @BeforeEach
    void startRsyslog() throws IOException {
        assertThat(RSYSLOGD).as("rsyslogd (apt-get install rsyslog)").isExecutable();
        udpPort = freeUdpPort();
        tcpPort = freeTcpPort();
        received = dir.resolve("received.log");
        Path work = Files.createDirectories(dir.resolve("work"));
        Path conf = dir.resolve("rsyslog.conf");
        Files.writeString(conf, """
                global(workDirectory="%s")
                module(load="imudp")
                module(load="imtcp")
                input(type="imudp" address="127.0.0.1" port="%d")
                input(type="imtcp" address="127.0.0.1" port="%d")
                template(name="stored" type="string" string="%%inputname%% %%app-name%% %%msgid%% %%msg%%\\n")
                if $app-name == "edp" then {
                    action(type="omfile" file="%s" template="stored")
                }
                """.formatted(work, udpPort, tcpPort, received));
        rsyslogd = new ProcessBuilder(RSYSLOGD.toString(), "-n", "-f", conf.toString(), "-i",
                dir.resolve("rsyslogd.pid").toString()).redirectErrorStream(true)
                .redirectOutput(dir.resolve("rsyslogd.out").toFile()).start();
        // ready when a probe sent over UDP has been stored (the TCP input is up by then too: it is accepting)
        try (DatagramSocket probe = new DatagramSocket()) {
            byte[] message = "<134>1 - - edp - PROBE - ready?".getBytes(StandardCharsets.US_ASCII);
            Await.until("rsyslogd stores a probe", () -> {
                send(probe, message);
                return stored().stream().anyMatch(l -> l.contains(" PROBE ")) && accepts(tcpPort);
            }, DEADLINE, this::rsyslogOutput);
        }
    }

    @AfterEach
    void stopRsyslog() throws InterruptedException {
        if (rsyslogd != null) {
            rsyslogd.destroy();
            if (!rsyslogd.waitFor(5, TimeUnit.SECONDS)) {
                rsyslogd.destroyForcibly();
            }
        }
    }

    @Test
    void rsyslogStoresOneLinePerConnectionStartAndEndOverUdpAndTcp() {
        List<Flow> tcp = List.of(flow(Protocol.TCP, Pair.A_B, 0), flow(Protocol.TCP, Pair.A_B, 1),
                flow(Protocol.TCP, Pair.A_B, 2), flow(Protocol.TCP, Pair.A_B, 3));
        List<Flow> udp = List.of(flow(Protocol.UDP, Pair.A_B, 10), flow(Protocol.UDP, Pair.A_B, 12),
                flow(Protocol.UDP, Pair.A_B, 14));
        List<Flow> dropped = List.of(flow(Protocol.UDP, Pair.B_A, 20), flow(Protocol.UDP, Pair.B_A, 22));
        Flow revoked = flow(Protocol.UDP, Pair.A_B, 11); // to port 5353, which rule 3 (logged) will drop
        List<String> expected = new ArrayList<>();
        ManualClock clock = new ManualClock(1_000_000_000L);
        // rule 9 (logged) lets A open connections to B, rule 8 (logged) drops the rest
        EngineConfig config = ModelNetwork.config(Mode.EDP_STANDARD, List.of(8, 7), ModelNetwork.INITIAL_ROUTES,
                ModelNetwork.CACHE_SETTINGS.get(1)).toBuilder()
                .packetLog(PacketLogConfig.to(List.of(new SyslogServer("127.0.0.1", udpPort, Transport.UDP),
                        new SyslogServer("127.0.0.1", tcpPort, Transport.TCP)), null))
                .build();
        try (Engine engine = Engine.startStepped(config, NicDrivers.withLoopback(), clock)) {
            for (int i = 0; i < tcp.size(); i++) {
                Flow f = tcp.get(i);
                boolean fin = i < 2;
                send(engine, f, false, 1);
                send(engine, f, true, 2);
                for (int p = 0; p < 3; p++) {
                    send(engine, f, false, 0);
                    send(engine, f, true, 0);
                }
                if (fin) {
                    send(engine, f, false, 3);
                    send(engine, f, true, 3);
                } else {
                    send(engine, f, false, 4);
                }
                expected.add("match PASS 9 OUT TCP " + addresses(f) + " S");
                expected.add("TERM 9 OUT TCP " + (fin ? "FIN " : "RST ") + addresses(f) + (fin ? " 5/5" : " 5/4"));
            }
            for (Flow f : udp) {
                for (int p = 0; p < 4; p++) {
                    send(engine, f, false, 0);
                }
                for (int p = 0; p < 3; p++) {
                    send(engine, f, true, 0);
                }
                expected.add("match PASS 9 OUT UDP " + addresses(f));
                expected.add("TERM 9 OUT UDP TIMEOUT " + addresses(f) + " 4/3");
            }
            for (Flow f : dropped) {
                send(engine, f, false, 0);
                send(engine, f, false, 0);
                expected.add("match DROP 8 IN UDP " + addresses(f));
                expected.add("match DROP 8 IN UDP " + addresses(f));
            }
            send(engine, revoked, false, 0);
            send(engine, revoked, true, 0);
            Flow cleared = flow(Protocol.UDP, Pair.A_B, 16);
            send(engine, cleared, false, 0);
            send(engine, cleared, false, 0);
            send(engine, cleared, true, 0);
            assertThat(engine.clearConnections(ConnectionFilter.tuple(FlowKey.PROTO_UDP, "10.0.0.1",
                    cleared.sourcePort(), "10.0.0.2", cleared.destinationPort()))).isEqualTo(1);
            expected.add("match PASS 9 OUT UDP " + addresses(cleared));
            expected.add("TERM 9 OUT UDP CLEARED " + addresses(cleared) + " 2/1");
            send(engine, revoked, false, 0);
            engine.apply(config.toBuilder().rules(ModelNetwork.pick(ModelNetwork.RULES, List.of(2, 8, 7))).build());
            send(engine, revoked, false, 0); // no longer allowed: the connection ends, the packet is dropped
            expected.add("match PASS 9 OUT UDP " + addresses(revoked));
            expected.add("TERM 9 OUT UDP REVOKED " + addresses(revoked) + " 2/1");
            expected.add("match DROP 3 OUT UDP " + addresses(revoked));
            clock.advance(Duration.ofSeconds(61)); // past the UDP timeout: the sweep ends the conversations
            engine.step();
            engine.packetLog().flush();
            PacketLogStats stats = engine.packetLog().stats();
            assertThat(stats.queued()).isEqualTo(expected.size());
            assertThat(stats.suppressed() + stats.lost() + stats.outputErrors()).isZero();
        }
        Await.until("rsyslogd stores " + expected.size() + " lines from each input",
                () -> lines("imudp").size() >= expected.size() && lines("imtcp").size() >= expected.size(),
                DEADLINE, () -> String.join("\n", stored()));
        for (String input : List.of("imudp", "imtcp")) {
            List<String> lines = lines(input);
            assertThat(lines).as("lines received over %s", input).allSatisfy(l -> assertThat(l)
                    .matches("edp FIREWALL_PKTLOG \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z "
                            + "(vm-a-eth0|uplink0) INET .*"));
            assertThat(lines.stream().map(PacketLogSyslogTest::essentials).toList()).as("over %s", input)
                    .containsExactlyInAnyOrderElementsOf(expected);
        }
    }

    /** A stored line without its timestamp, interface, address family, packet length and byte counts. */
    private static String essentials(String stored) {
        String[] f = stored.split(" ");
        // edp FIREWALL_PKTLOG timestamp interface INET match ACTION rule dir length proto addresses [flags]
        // edp FIREWALL_PKTLOG timestamp interface INET TERM rule dir proto reason addresses packets bytes
        if (f[5].equals("TERM")) {
            return String.join(" ", "TERM", f[6], f[7], f[8], f[9], f[10], f[11]);
        }
        String line = String.join(" ", f[5], f[6], f[7], f[8], f[10], f[11]);
        return f.length > 12 ? line + " " + f[12] : line;
    }

    private static String addresses(Flow f) {
        String from = f.pair() == Pair.A_B ? "10.0.0.1" : "10.0.0.2";
        String to = f.pair() == Pair.A_B ? "10.0.0.2" : "10.0.0.1";
        return from + "/" + f.sourcePort() + "->" + to + "/" + f.destinationPort();
    }

    private static Flow flow(Protocol protocol, Pair pair, int port) {
        return new Flow(protocol, pair, false, port);
    }

    private int seq;

    private void send(Engine engine, Flow flow, boolean reply, int kind) {
        Ingress frame = FlowFrames.packet(flow, reply, kind, Tagging.LINK, 64, seq++);
        LoopbackNic nic = (LoopbackNic) engine.driver(frame.port());
        assertThat(nic.inject(MemorySegment.ofArray(frame.frame()), 0, frame.frame().length)).isTrue();
        engine.step();
    }

    private List<String> lines(String input) {
        String prefix = input + " edp FIREWALL_PKTLOG ";
        return stored().stream().filter(l -> l.startsWith(prefix)).map(l -> l.substring(input.length() + 1))
                .map(l -> l.replaceFirst("FIREWALL_PKTLOG +", "FIREWALL_PKTLOG ")).toList();
    }

    private List<String> stored() {
        try {
            return Files.exists(received) ? Files.readAllLines(received) : List.of();
        } catch (IOException e) {
            return List.of();
        }
    }

    private String rsyslogOutput() {
        try {
            return (rsyslogd.isAlive() ? "rsyslogd running" : "rsyslogd exited " + rsyslogd.exitValue()) + ": "
                    + Files.readString(dir.resolve("rsyslogd.out"));
        } catch (IOException e) {
            return e.toString();
        }
    }

    private void send(DatagramSocket socket, byte[] message) {
        try {
            socket.send(new DatagramPacket(message, message.length, InetAddress.getLoopbackAddress(), udpPort));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static boolean accepts(int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static int freeUdpPort() throws IOException {
        try (DatagramSocket s = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private static int freeTcpPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
