package io.edp.engine.packet;

import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/** Layouts for header fields as they are on the wire: big-endian, at any alignment. */
public final class NetworkOrder {

    public static final ValueLayout.OfShort U16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    public static final ValueLayout.OfInt U32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    public static final ValueLayout.OfLong U64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    private NetworkOrder() {
    }
}
