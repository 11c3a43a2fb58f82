package io.edp.engine.slowpath;

import io.edp.engine.packet.FlowKey;
import java.util.List;

/** Firewall rules compiled into parallel primitive arrays, scanned in order with the cheapest tests first. */
public final class RuleSet {

    private final int[] ids;
    private final int[] protocols;
    private final int[] versions;
    private final long[] srcHi;
    private final long[] srcLo;
    private final long[] srcMaskHi;
    private final long[] srcMaskLo;
    private final long[] dstHi;
    private final long[] dstLo;
    private final long[] dstMaskHi;
    private final long[] dstMaskLo;
    private final int[] srcPortFrom;
    private final int[] srcPortTo;
    private final int[] dstPortFrom;
    private final int[] dstPortTo;
    private final long[][] appliedTo;
    private final Verdict[] verdicts;

    public RuleSet(List<FirewallRule> rules) {
        int n = rules.size();
        ids = new int[n];
        protocols = new int[n];
        versions = new int[n];
        srcHi = new long[n];
        srcLo = new long[n];
        srcMaskHi = new long[n];
        srcMaskLo = new long[n];
        dstHi = new long[n];
        dstLo = new long[n];
        dstMaskHi = new long[n];
        dstMaskLo = new long[n];
        srcPortFrom = new int[n];
        srcPortTo = new int[n];
        dstPortFrom = new int[n];
        dstPortTo = new int[n];
        appliedTo = new long[n][];
        verdicts = new Verdict[n];
        for (int i = 0; i < n; i++) {
            FirewallRule r = rules.get(i);
            Cidr src = Cidr.parse(r.source(), "firewall rule " + r.id() + " source");
            Cidr dst = Cidr.parse(r.destination(), "firewall rule " + r.id() + " destination");
            if (src.version() != 0 && dst.version() != 0 && src.version() != dst.version()) {
                throw new IllegalArgumentException("firewall rule " + r.id()
                        + ": source and destination mix IPv4 and IPv6");
            }
            ids[i] = r.id();
            protocols[i] = r.protocol();
            versions[i] = Math.max(src.version(), dst.version());
            srcHi[i] = src.hi();
            srcLo[i] = src.lo();
            srcMaskHi[i] = Cidr.maskHi(src.length());
            srcMaskLo[i] = Cidr.maskLo(src.length());
            dstHi[i] = dst.hi();
            dstLo[i] = dst.lo();
            dstMaskHi[i] = Cidr.maskHi(dst.length());
            dstMaskLo[i] = Cidr.maskLo(dst.length());
            srcPortFrom[i] = r.sourcePorts().from();
            srcPortTo[i] = r.sourcePorts().to();
            dstPortFrom[i] = r.destinationPorts().from();
            dstPortTo[i] = r.destinationPorts().to();
            appliedTo[i] = bitset(r);
            verdicts[i] = r.verdict();
        }
    }

    private static long[] bitset(FirewallRule r) {
        if (r.appliedTo().isEmpty()) {
            return null;
        }
        int max = 0;
        for (int port : r.appliedTo()) {
            if (port < 0 || port > 0xFFFF) {
                throw new IllegalArgumentException("firewall rule " + r.id() + " appliedTo: bad port " + port);
            }
            max = Math.max(max, port);
        }
        long[] bits = new long[max / 64 + 1];
        for (int port : r.appliedTo()) {
            bits[port >>> 6] |= 1L << port;
        }
        return bits;
    }

    public int size() {
        return ids.length;
    }

    /** The index of the first rule matching the packet, or -1. {@code outPort} is -1 when not yet known. */
    public int match(long srcAddrHi, long srcAddrLo, long dstAddrHi, long dstAddrLo, long l4, int outPort) {
        int proto = FlowKey.proto(l4);
        int version = FlowKey.ipVersion(l4);
        int sport = FlowKey.srcPort(l4);
        int dport = FlowKey.dstPort(l4);
        boolean ports = proto == FlowKey.PROTO_TCP || proto == FlowKey.PROTO_UDP;
        int inPort = FlowKey.inPort(l4);
        for (int i = 0; i < ids.length; i++) {
            if ((protocols[i] != 0 && protocols[i] != proto) || (versions[i] != 0 && versions[i] != version)) {
                continue;
            }
            if ((dstAddrHi & dstMaskHi[i]) != dstHi[i] || (dstAddrLo & dstMaskLo[i]) != dstLo[i]
                    || (srcAddrHi & srcMaskHi[i]) != srcHi[i] || (srcAddrLo & srcMaskLo[i]) != srcLo[i]) {
                continue;
            }
            if (ports && (sport < srcPortFrom[i] || sport > srcPortTo[i] || dport < dstPortFrom[i]
                    || dport > dstPortTo[i])) {
                continue;
            }
            long[] scope = appliedTo[i];
            if (scope != null && !contains(scope, inPort) && !contains(scope, outPort)) {
                continue;
            }
            return i;
        }
        return -1;
    }

    private static boolean contains(long[] bits, int port) {
        return port >= 0 && (port >>> 6) < bits.length && (bits[port >>> 6] & (1L << port)) != 0;
    }

    public int id(int index) {
        return ids[index];
    }

    public Verdict verdict(int index) {
        return verdicts[index];
    }
}
