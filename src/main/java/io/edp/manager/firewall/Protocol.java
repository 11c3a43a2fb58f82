package io.edp.manager.firewall;

/** The protocols a firewall rule can match, with their IP protocol numbers (ANY: 0, every protocol). */
public enum Protocol {
    ANY(0), ICMP(1), TCP(6), UDP(17), ICMPV6(58);

    private final int number;

    Protocol(int number) {
        this.number = number;
    }

    public int number() {
        return number;
    }

    /** Port ranges only make sense where there are ports. */
    boolean hasPorts() {
        return this == TCP || this == UDP;
    }
}
