package io.edp.engine.mbuf;

/**
 * The LEGACY data path's packet descriptor: 256 bytes, four cache lines, as the pre-EDP stack's
 * {@code PktHandle}. It starts with the same fields as {@link Mbuf} (so one flyweight serves both) and
 * carries the legacy stack's per-packet IOChain metadata in the two extra lines, which every packet touches.
 * Keeping both layouts in one pool type lets a benchmark compare them on the same work.
 * <pre>
 *  off size
 *    0 128  the {@link Mbuf} fields (fast-path line and flow key line)
 *  128 128  IOChain scratch: per-stage verdicts, scatter-gather list, completion info
 * </pre>
 */
public final class PktHandle {

    public static final int DESCRIPTOR_BYTES = 256;
    public static final int IOCHAIN_SCRATCH_OFFSET = 128;
    public static final int IOCHAIN_SCRATCH_BYTES = 128;

    private PktHandle() {
    }
}
