package io.edp.manager.api;

import java.util.Map;

/**
 * A change that would make the embedded engines need more memory than their budget: answered with 409, saying
 * how much more it needs and how much is left.
 */
public class MemoryBudgetExceededException extends RuntimeException {

    private final Map<String, Long> hosts;
    private final long neededBytes;
    private final long availableBytes;
    private final long budgetBytes;

    /**
     * @param hosts          the hosts whose engines would need more, with what each would need in all
     * @param neededBytes    how much more the change needs
     * @param availableBytes how much of the budget is left
     * @param budgetBytes    the budget
     */
    public MemoryBudgetExceededException(Map<String, Long> hosts, long neededBytes, long availableBytes,
                                         long budgetBytes) {
        super("This change needs " + mebibytes(neededBytes) + " more memory for embedded engines, but only "
                + mebibytes(availableBytes) + " of their budget of " + mebibytes(budgetBytes)
                + " is left (edp.engines.memory-budget); engines that would grow: " + describe(hosts));
        this.hosts = Map.copyOf(hosts);
        this.neededBytes = neededBytes;
        this.availableBytes = availableBytes;
        this.budgetBytes = budgetBytes;
    }

    private static String describe(Map<String, Long> hosts) {
        var text = new StringBuilder();
        hosts.forEach((host, bytes) -> text.append(text.isEmpty() ? "" : ", ").append(host).append(" to ")
                .append(mebibytes(bytes)));
        return text.toString();
    }

    private static String mebibytes(long bytes) {
        return String.format(java.util.Locale.ROOT, "%.1f MiB", bytes / (1024.0 * 1024.0));
    }

    public Map<String, Long> hosts() {
        return hosts;
    }

    public long neededBytes() {
        return neededBytes;
    }

    public long availableBytes() {
        return availableBytes;
    }

    public long budgetBytes() {
        return budgetBytes;
    }
}
