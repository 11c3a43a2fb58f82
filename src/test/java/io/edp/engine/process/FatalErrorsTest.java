package io.edp.engine.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;

class FatalErrorsTest {

    private final List<Integer> halts = new ArrayList<>();
    private final ByteArrayOutputStream log = new ByteArrayOutputStream();
    private final FatalErrors fatal = new FatalErrors(halts::add, new PrintStream(log, true, StandardCharsets.UTF_8));

    @Test
    void anOutOfMemoryErrorHaltsWithOneLogLine() {
        fatal.check(new OutOfMemoryError("Java heap space"));

        assertThat(halts).containsExactly(FatalErrors.OUT_OF_MEMORY_STATUS);
        assertThat(log.toString(StandardCharsets.UTF_8).lines()).singleElement().asString()
                .contains("OutOfMemoryError").contains(Thread.currentThread().getName());
    }

    @Test
    void anOutOfMemoryErrorWrappedByAFrameworkHaltsToo() {
        fatal.check(new ExecutionException(new IllegalStateException("handler failed", new OutOfMemoryError())));

        assertThat(halts).containsExactly(FatalErrors.OUT_OF_MEMORY_STATUS);
    }

    @Test
    void otherErrorsDoNotHalt() {
        fatal.check(new IllegalStateException("an ordinary failure"));
        fatal.check(new StackOverflowError());

        assertThat(halts).isEmpty();
        assertThat(log.size()).isZero();
    }

    @Test
    void aThreadDyingOfOutOfMemoryHaltsAndOtherDeathsGoToTheNextHandler() throws InterruptedException {
        var passedOn = new ArrayList<Throwable>();
        var handler = fatal.handler((thread, error) -> passedOn.add(error));
        var ordinary = new IllegalStateException("ordinary");

        for (Throwable error : new Throwable[] {new OutOfMemoryError("Direct buffer memory"), ordinary}) {
            var thread = Thread.ofPlatform().uncaughtExceptionHandler(handler).unstarted(() -> {
                if (error instanceof Error e) {
                    throw e;
                }
                throw (RuntimeException) error;
            });
            thread.start();
            thread.join();
        }

        assertThat(halts).containsExactly(FatalErrors.OUT_OF_MEMORY_STATUS);
        assertThat(passedOn).hasSize(2).last().isSameAs(ordinary);
    }
}
