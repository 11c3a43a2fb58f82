package io.edp.engine.nic.afpacket;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;
import static java.lang.foreign.MemoryLayout.paddingLayout;
import static java.lang.foreign.MemoryLayout.sequenceLayout;
import static java.lang.foreign.MemoryLayout.structLayout;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.StructLayout;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The kernel structures of {@code <linux/if_packet.h>} and {@code <net/if.h>} that a PACKET_MMAP socket uses,
 * as FFM layouts with one named VarHandle per field read or written. Field names are the kernel's. Every
 * VarHandle takes {@code (MemorySegment, long offset)}, the offset of the structure in the segment.
 */
final class PacketLayouts {

    /** ETH_P_ALL (every protocol) in network byte order, as sockaddr_ll wants it. */
    static final short ETH_P_ALL_BE = networkOrder(0x0003);
    static final int IFNAMSIZ = 16;

    static final int TPACKET_V2 = 1;
    static final int TPACKET_V3 = 2;

    // setsockopt(SOL_PACKET, ...) options
    static final int PACKET_ADD_MEMBERSHIP = 1;
    static final int PACKET_RX_RING = 5;
    static final int PACKET_STATISTICS = 6;
    static final int PACKET_VERSION = 10;
    static final int PACKET_TX_RING = 13;
    /** On a TX ring: skip a malformed frame instead of stopping the ring on it (TP_STATUS_WRONG_FORMAT). */
    static final int PACKET_LOSS = 14;
    static final int PACKET_FANOUT = 18;
    static final int PACKET_QDISC_BYPASS = 20;
    static final int PACKET_IGNORE_OUTGOING = 23;
    static final int PACKET_MR_PROMISC = 1;
    static final int PACKET_FANOUT_HASH = 0;
    /** Reassemble IP fragments before hashing, so all fragments of a datagram reach the same queue. */
    static final int PACKET_FANOUT_FLAG_DEFRAG = 0x8000;
    /** Let the kernel pick an unused group id (first socket only); read it back with getsockopt. */
    static final int PACKET_FANOUT_FLAG_UNIQUEID = 0x2000;
    static final int PACKET_OUTGOING = 4;
    /** tp_feature_req_word: fill tp_rxhash with the kernel's flow hash (the one fanout uses). */
    static final int TP_FT_REQ_FILL_RXHASH = 1;

    // tp_status / block_status bits
    static final int TP_STATUS_KERNEL = 0;
    static final int TP_STATUS_USER = 1;
    static final int TP_STATUS_VLAN_VALID = 1 << 4;
    static final int TP_STATUS_VLAN_TPID_VALID = 1 << 6;
    static final int TP_STATUS_AVAILABLE = 0;
    static final int TP_STATUS_SEND_REQUEST = 1;

    static final int IFF_UP = 0x1;

    /**
     * {@code struct tpacket_req3}: the RX ring's geometry (PACKET_RX_RING, TPACKET_V3). For a TPACKET_V2 TX
     * ring the kernel reads only the first four fields ({@code struct tpacket_req}).
     */
    static final StructLayout TPACKET_REQ3 = structLayout(
            JAVA_INT.withName("tp_block_size"),
            JAVA_INT.withName("tp_block_nr"),
            JAVA_INT.withName("tp_frame_size"),
            JAVA_INT.withName("tp_frame_nr"),
            JAVA_INT.withName("tp_retire_blk_tov"),
            JAVA_INT.withName("tp_sizeof_priv"),
            JAVA_INT.withName("tp_feature_req_word")).withName("tpacket_req3");
    static final VarHandle REQ_BLOCK_SIZE = field(TPACKET_REQ3, "tp_block_size");
    static final VarHandle REQ_BLOCK_NR = field(TPACKET_REQ3, "tp_block_nr");
    static final VarHandle REQ_FRAME_SIZE = field(TPACKET_REQ3, "tp_frame_size");
    static final VarHandle REQ_FRAME_NR = field(TPACKET_REQ3, "tp_frame_nr");
    static final VarHandle REQ_RETIRE_BLK_TOV = field(TPACKET_REQ3, "tp_retire_blk_tov");
    static final VarHandle REQ_FEATURE_REQ_WORD = field(TPACKET_REQ3, "tp_feature_req_word");

    /**
     * {@code struct tpacket_block_desc} with its {@code tpacket_hdr_v1}: the head of every RX block. The kernel
     * fills a block, sets TP_STATUS_USER in {@code block_status}; user space reads its packets and hands the
     * block back by writing TP_STATUS_KERNEL.
     * <pre>
     *  off  field                 off  field
     *    0  version                 16  offset_to_first_pkt
     *    4  offset_to_priv          20  blk_len
     *    8  block_status            24  seq_num (u64)
     *   12  num_pkts                32  ts_first_pkt, 40 ts_last_pkt
     * </pre>
     */
    static final StructLayout TPACKET_BLOCK_DESC = structLayout(
            JAVA_INT.withName("version"),
            JAVA_INT.withName("offset_to_priv"),
            JAVA_INT.withName("block_status"),
            JAVA_INT.withName("num_pkts"),
            JAVA_INT.withName("offset_to_first_pkt"),
            JAVA_INT.withName("blk_len"),
            JAVA_LONG.withName("seq_num"),
            JAVA_LONG.withName("ts_first_pkt"),
            JAVA_LONG.withName("ts_last_pkt")).withName("tpacket_block_desc");
    static final VarHandle BLOCK_STATUS = field(TPACKET_BLOCK_DESC, "block_status");
    static final VarHandle BLOCK_NUM_PKTS = field(TPACKET_BLOCK_DESC, "num_pkts");
    static final VarHandle BLOCK_OFFSET_TO_FIRST_PKT = field(TPACKET_BLOCK_DESC, "offset_to_first_pkt");

    /**
     * {@code struct tpacket3_hdr}: the head of one received frame inside a block; the frame's bytes start
     * {@code tp_mac} bytes after it and the next header {@code tp_next_offset} bytes after it. A
     * {@code sockaddr_ll} follows at {@link #TPACKET3_HDRLEN} (TPACKET_ALIGN(sizeof)).
     */
    static final StructLayout TPACKET3_HDR = structLayout(
            JAVA_INT.withName("tp_next_offset"),
            JAVA_INT.withName("tp_sec"),
            JAVA_INT.withName("tp_nsec"),
            JAVA_INT.withName("tp_snaplen"),
            JAVA_INT.withName("tp_len"),
            JAVA_INT.withName("tp_status"),
            JAVA_SHORT.withName("tp_mac"),
            JAVA_SHORT.withName("tp_net"),
            JAVA_INT.withName("tp_rxhash"),
            JAVA_INT.withName("tp_vlan_tci"),
            JAVA_SHORT.withName("tp_vlan_tpid"),
            JAVA_SHORT.withName("tp_padding"),
            paddingLayout(8)).withName("tpacket3_hdr");
    static final long TPACKET3_HDRLEN = 48;
    static final VarHandle V3_NEXT_OFFSET = field(TPACKET3_HDR, "tp_next_offset");
    static final VarHandle V3_SEC = field(TPACKET3_HDR, "tp_sec");
    static final VarHandle V3_NSEC = field(TPACKET3_HDR, "tp_nsec");
    static final VarHandle V3_SNAPLEN = field(TPACKET3_HDR, "tp_snaplen");
    static final VarHandle V3_STATUS = field(TPACKET3_HDR, "tp_status");
    static final VarHandle V3_MAC = field(TPACKET3_HDR, "tp_mac");
    static final VarHandle V3_RXHASH = field(TPACKET3_HDR, "tp_rxhash");
    static final VarHandle V3_VLAN_TCI = field(TPACKET3_HDR, "tp_vlan_tci");
    static final VarHandle V3_VLAN_TPID = field(TPACKET3_HDR, "tp_vlan_tpid");

    /**
     * {@code struct tpacket2_hdr}: the head of one TX ring frame. User space writes the frame at
     * {@link #TPACKET2_TX_DATA_OFFSET}, its length in {@code tp_len}, then TP_STATUS_SEND_REQUEST in
     * {@code tp_status}; the kernel writes TP_STATUS_AVAILABLE back once the frame has left.
     */
    static final StructLayout TPACKET2_HDR = structLayout(
            JAVA_INT.withName("tp_status"),
            JAVA_INT.withName("tp_len"),
            JAVA_INT.withName("tp_snaplen"),
            JAVA_SHORT.withName("tp_mac"),
            JAVA_SHORT.withName("tp_net"),
            JAVA_INT.withName("tp_sec"),
            JAVA_INT.withName("tp_nsec"),
            JAVA_SHORT.withName("tp_vlan_tci"),
            JAVA_SHORT.withName("tp_vlan_tpid"),
            paddingLayout(4)).withName("tpacket2_hdr");
    static final VarHandle V2_STATUS = field(TPACKET2_HDR, "tp_status");
    static final VarHandle V2_LEN = field(TPACKET2_HDR, "tp_len");
    /** TPACKET2_HDRLEN - sizeof(struct sockaddr_ll) = 52 - 20: where the kernel takes a TX frame's bytes from. */
    static final long TPACKET2_TX_DATA_OFFSET = 32;

    /** {@code struct tpacket_stats_v3}: PACKET_STATISTICS of a V3 socket; reading it resets the kernel's counts. */
    static final StructLayout TPACKET_STATS_V3 = structLayout(
            JAVA_INT.withName("tp_packets"),
            JAVA_INT.withName("tp_drops"),
            JAVA_INT.withName("tp_freeze_q_cnt")).withName("tpacket_stats_v3");
    static final VarHandle STATS_DROPS = field(TPACKET_STATS_V3, "tp_drops");

    /** {@code struct sockaddr_ll}: binds a socket to one interface and protocol. */
    static final StructLayout SOCKADDR_LL = structLayout(
            JAVA_SHORT.withName("sll_family"),
            JAVA_SHORT.withName("sll_protocol"),
            JAVA_INT.withName("sll_ifindex"),
            JAVA_SHORT.withName("sll_hatype"),
            JAVA_BYTE.withName("sll_pkttype"),
            JAVA_BYTE.withName("sll_halen"),
            sequenceLayout(8, JAVA_BYTE).withName("sll_addr")).withName("sockaddr_ll");
    static final VarHandle SLL_FAMILY = field(SOCKADDR_LL, "sll_family");
    static final VarHandle SLL_PROTOCOL = field(SOCKADDR_LL, "sll_protocol");
    static final VarHandle SLL_IFINDEX = field(SOCKADDR_LL, "sll_ifindex");
    static final VarHandle SLL_PKTTYPE = field(SOCKADDR_LL, "sll_pkttype");

    /** {@code struct packet_mreq}: PACKET_ADD_MEMBERSHIP, here to put the interface in promiscuous mode. */
    static final StructLayout PACKET_MREQ = structLayout(
            JAVA_INT.withName("mr_ifindex"),
            JAVA_SHORT.withName("mr_type"),
            JAVA_SHORT.withName("mr_alen"),
            sequenceLayout(8, JAVA_BYTE).withName("mr_address")).withName("packet_mreq");
    static final VarHandle MR_IFINDEX = field(PACKET_MREQ, "mr_ifindex");
    static final VarHandle MR_TYPE = field(PACKET_MREQ, "mr_type");

    /** {@code struct ifreq} as SIOCGIFFLAGS uses it: the name in, the flags out. */
    static final StructLayout IFREQ_FLAGS = structLayout(
            sequenceLayout(IFNAMSIZ, JAVA_BYTE).withName("ifr_name"),
            JAVA_SHORT.withName("ifr_flags"),
            paddingLayout(22)).withName("ifreq");
    static final VarHandle IFR_FLAGS = field(IFREQ_FLAGS, "ifr_flags");

    private PacketLayouts() {
    }

    /** A 16-bit value as it must sit in memory for a big-endian ({@code __be16}) field read as a host short. */
    static short networkOrder(int value) {
        short host = (short) value;
        return ByteOrder.nativeOrder() == ByteOrder.BIG_ENDIAN ? host : Short.reverseBytes(host);
    }

    private static VarHandle field(StructLayout layout, String name) {
        return layout.varHandle(groupElement(name));
    }
}
