package io.edp.bench;

/**
 * The work a forwarder does with each frame in {@code bench afpacket --peer ovs}, the same on both sides of a
 * comparison.
 */
public enum Pipeline {
    /**
     * Every frame from the ingress port out of the egress one, unchanged: the engine's drivers alone, OVS's
     * {@code in_port=1,actions=output:2}.
     */
    PLAIN("plain"),
    /**
     * The engine's firewall (a DROP and an ALLOW rule, connection tracking) and routing (MAC rewrite, TTL
     * decrement).
     */
    ENGINE_WORK("engine-work");

    private final String label;

    Pipeline(String label) {
        this.label = label;
    }

    @Override
    public String toString() {
        return label;
    }
}
