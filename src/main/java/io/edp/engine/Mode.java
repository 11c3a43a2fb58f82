package io.edp.engine;

import io.edp.engine.mbuf.Mbuf;
import io.edp.engine.mbuf.PktHandle;
import java.util.Locale;

/** The data-path mode of DESIGN.md. */
public enum Mode {
    /** Every packet runs the whole IOChain; 256-byte descriptors; workers sleep on their doorbell when idle. */
    LEGACY,
    /**
     * Flow cache fast path; workers spin briefly, then sleep until the NIC rings their doorbell. NSX: ENS_INTERRUPT.
     */
    EDP_STANDARD,
    /** Flow cache fast path; workers busy-poll their cores. NSX: ENS. */
    EDP_DEDICATED;

    /** Bytes of the packet descriptor this mode's buffers carry: {@link PktHandle} in LEGACY, else {@link Mbuf}. */
    public int descriptorBytes() {
        return this == LEGACY ? PktHandle.DESCRIPTOR_BYTES : Mbuf.DESCRIPTOR_BYTES;
    }

    /** Parses a mode, accepting the NSX names; rejects the ambiguous {@code STANDARD}. */
    public static Mode parse(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("mode is required: LEGACY, EDP_STANDARD or EDP_DEDICATED");
        }
        String name = text.trim().toUpperCase(Locale.ROOT).replace('-', '_');
        return switch (name) {
            case "LEGACY" -> LEGACY;
            case "EDP_STANDARD", "ENS_INTERRUPT" -> EDP_STANDARD;
            case "EDP_DEDICATED", "ENS" -> EDP_DEDICATED;
            case "STANDARD" -> throw new IllegalArgumentException("mode: STANDARD is ambiguous; say LEGACY (the "
                    + "pre-EDP path, NSX 'Standard') or EDP_STANDARD (the flow-cache path, NSX 'ENS_INTERRUPT')");
            default -> throw new IllegalArgumentException("mode: unknown '" + text
                    + "' (LEGACY, EDP_STANDARD / ENS_INTERRUPT, EDP_DEDICATED / ENS)");
        };
    }
}
