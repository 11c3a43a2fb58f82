package io.edp.engine.nic.pcap;

/**
 * The classic libpcap file format (not pcapng), as tcpdump and tshark write it.
 * <pre>
 * file header, 24 bytes                  record header, 16 bytes, then incl_len frame bytes
 *  off size field                          off size field
 *    0   4  magic_number                     0   4  ts_sec
 *    4   2  version_major (2)                4   4  ts_usec, or ts_nsec in a nanosecond file
 *    6   2  version_minor (4)                8   4  incl_len   bytes stored
 *    8   4  thiszone (0)                    12   4  orig_len   bytes on the wire
 *   12   4  sigfigs (0)
 *   16   4  snaplen
 *   20   4  network (1 = Ethernet)
 * </pre>
 * The magic, read in the writer's byte order, says both the byte order of every other field (it reads as
 * {@code 0xd4c3b2a1} when swapped) and the timestamp unit: {@code 0xa1b2c3d4} microseconds, {@code 0xa1b23c4d}
 * nanoseconds.
 */
final class PcapFormat {

    static final int MAGIC_MICROS = 0xa1b2c3d4;
    static final int MAGIC_NANOS = 0xa1b23c4d;
    static final int MAGIC_PCAPNG = 0x0a0d0d0a;
    static final int FILE_HEADER_BYTES = 24;
    static final int RECORD_HEADER_BYTES = 16;
    static final int VERSION_MAJOR = 2;
    static final int VERSION_MINOR = 4;
    static final int LINKTYPE_ETHERNET = 1;

    static final int SNAPLEN_OFFSET = 16;
    static final int NETWORK_OFFSET = 20;
    static final int TS_SEC_OFFSET = 0;
    static final int TS_FRACTION_OFFSET = 4;
    static final int INCL_LEN_OFFSET = 8;
    static final int ORIG_LEN_OFFSET = 12;

    private PcapFormat() {
    }
}
