package io.edp.engine.worker;

/** EDP_DEDICATED: the worker owns its core and never sleeps; the spin-wait hint keeps the sibling thread fed. */
public final class BusySpinIdleStrategy implements IdleStrategy {

    @Override
    public void idle(int workCount) {
        if (workCount == 0) {
            Thread.onSpinWait();
        }
    }

    @Override
    public boolean sleepsNext() {
        return false;
    }

    @Override
    public void reset() {
    }
}
