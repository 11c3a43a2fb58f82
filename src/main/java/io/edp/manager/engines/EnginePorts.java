package io.edp.manager.engines;

import io.edp.engine.EngineConfig;
import io.edp.engine.VnicConfig;
import io.edp.engine.nic.PortConfig;
import io.edp.manager.api.InvalidRequestException;

/** A host engine's ports as the API names them: a physical NIC's name, a virtual NIC's MAC or its port name. */
public final class EnginePorts {

    private EnginePorts() {
    }

    /** The engine port {@code name} names, or a 400 on {@code field}. */
    public static int port(EngineConfig config, String name, String field) {
        for (PortConfig port : config.ports()) {
            if (port.name().equals(name)) {
                return port.id();
            }
        }
        for (VnicConfig vnic : config.vnics()) {
            if (vnic.mac().equalsIgnoreCase(name)) {
                return vnic.port();
            }
        }
        throw new InvalidRequestException(field, "the host's engine has no physical NIC, virtual NIC MAC or "
                + "port named '" + name + "'");
    }

    /** The name of port {@code id}. */
    public static String name(EngineConfig config, int id) {
        return config.ports().stream().filter(p -> p.id() == id).map(PortConfig::name).findFirst()
                .orElse("port " + id);
    }
}
