package io.edp.engine.nic;

import io.edp.bench.VethLab;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A test class's {@link VethLab.ForwardingPath} (generator namespace → ingress veth | root | egress veth → sink
 * namespace): built before its first test, removed after its last, even when a test fails.
 */
public final class ForwardingPathExtension implements BeforeAllCallback, AfterAllCallback {

    private VethLab lab;
    private VethLab.ForwardingPath path;

    @Override
    public void beforeAll(ExtensionContext context) {
        lab = new VethLab();
        path = lab.forwardingPath();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (lab != null) {
            lab.close();
        }
    }

    public VethLab lab() {
        return lab;
    }

    public VethLab.ForwardingPath path() {
        return path;
    }
}
