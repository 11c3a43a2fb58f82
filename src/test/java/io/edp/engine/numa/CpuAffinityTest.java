package io.edp.engine.numa;

import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

/** Pins fresh threads (never the test runner's) and reads the affinity back from the kernel. */
class CpuAffinityTest {

    @Test
    void pinnedThreadReportsTheSetItWasPinnedTo() throws Exception {
        CpuSet allowed = CpuAffinity.currentThreadAffinity();
        CpuSet first = CpuSet.of(allowed.cpus().first());

        CpuSet reported = onNewThread(() -> {
            CpuAffinity.pinCurrentThread(first);
            return CpuAffinity.currentThreadAffinity();
        });

        assertThat(reported).isEqualTo(first);
        assertThat(CpuAffinity.currentThreadAffinity()).isEqualTo(allowed);
    }

    @Test
    void workerPinnedToItsNodeRunsOnTheNodesCpus() throws Exception {
        NumaTopology host = NumaTopology.read(NumaTopology.SYSFS_NODES);
        int node = host.nodes().firstKey();
        WorkerPinning pinning = new WorkerPinning(true, host);

        CpuSet reported = onNewThread(() -> {
            pinning.pinToNode(node);
            return CpuAffinity.currentThreadAffinity();
        });

        assertThat(reported).isEqualTo(host.cpusOf(node).orElseThrow());
    }

    @Test
    void pinningIsOffUnlessEnabled() throws Exception {
        WorkerPinning off = WorkerPinning.fromHost(false);
        CpuSet allowed = CpuAffinity.currentThreadAffinity();

        CpuSet reported = onNewThread(() -> {
            assertThat(off.pinToNode(0)).isEmpty();
            return CpuAffinity.currentThreadAffinity();
        });

        assertThat(off.enabled()).isFalse();
        assertThat(reported).isEqualTo(allowed);
    }

    private static CpuSet onNewThread(Supplier<CpuSet> task) throws InterruptedException, ExecutionException,
            TimeoutException {
        CompletableFuture<CpuSet> result = new CompletableFuture<>();
        Thread.ofPlatform().start(() -> {
            try {
                result.complete(task.get());
            } catch (Throwable e) {
                result.completeExceptionally(e);
            }
        });
        return result.get(10, TimeUnit.SECONDS);
    }
}
