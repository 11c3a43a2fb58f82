package io.edp.engine.nic.afpacket;

/**
 * The errno values a packet socket's setup can meet, with the name a Linux user knows ({@code ENODEV}) and
 * what it means for an interface. Anything else is reported by number.
 */
enum Errno {
    EPERM(1, "operation not permitted: needs CAP_NET_RAW, run as root or grant the capability to java"),
    ENOENT(2, "no such file or directory"),
    EINTR(4, "interrupted system call"),
    ENXIO(6, "no such device or address"),
    EBADF(9, "bad file descriptor"),
    EAGAIN(11, "resource temporarily unavailable"),
    ENOMEM(12, "cannot allocate memory (ring too large for locked memory?)"),
    EACCES(13, "permission denied: needs CAP_NET_RAW"),
    EFAULT(14, "bad address"),
    EBUSY(16, "device or resource busy (ring already set?)"),
    ENODEV(19, "no such interface"),
    EINVAL(22, "invalid argument"),
    EMFILE(24, "too many open files"),
    EMSGSIZE(90, "frame larger than the interface MTU"),
    ENOPROTOOPT(92, "option not supported by this kernel"),
    EAFNOSUPPORT(97, "AF_PACKET not supported by this kernel"),
    EADDRINUSE(98, "fanout group id already used by another socket"),
    ENETDOWN(100, "interface is down"),
    ENOBUFS(105, "no buffer space available");

    private final int number;
    private final String meaning;

    Errno(int number, String meaning) {
        this.number = number;
        this.meaning = meaning;
    }

    /** {@code "ENODEV (no such interface)"}, or {@code "errno 71"} for one not listed. */
    static String describe(int number) {
        for (Errno e : values()) {
            if (e.number == number) {
                return e.name() + " (" + e.meaning + ")";
            }
        }
        return "errno " + number;
    }

    int number() {
        return number;
    }
}
