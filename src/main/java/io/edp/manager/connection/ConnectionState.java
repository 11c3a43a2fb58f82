package io.edp.manager.connection;

import io.edp.engine.slowpath.ConnectionTable;

/** A tracked connection's state: TCP's (a loose model, mid-stream pickup allowed), ACTIVE for the others. */
enum ConnectionState {
    SYN_SENT, ESTABLISHED, FIN_WAIT, CLOSED, ACTIVE;

    /** The engine's number for the state. */
    int number() {
        return ConnectionTable.state(name());
    }
}
