package io.edp.manager.database;

/**
 * The channels that the migrations' triggers NOTIFY (db/migration): the SQL names them too, so a channel is
 * renamed in both places or neither.
 */
public enum NotificationChannel {

    /** Some host's desired generation was bumped, or a host was added or deleted (V2); no payload. */
    DESIRED_STATE("edp_desired_state"),
    /** A host's realized generation moved, its state turned FAILED, or it was deleted (V6_2); payload: its id. */
    REALIZATION("edp_realization"),
    /** A request to the engine of a host placed AGENT was queued (V6_4); payload: the host's id. */
    ENGINE_REQUEST("edp_engine_request"),
    /** An agent answered a request to its engine (V6_4); payload: the request's id. */
    ENGINE_ANSWER("edp_engine_answer"),
    /** What a host's agent token authenticates changed: replaced, withdrawn, host renamed or deleted (V7_2);
     *  payload: the host's id, {@code ""} for every host. */
    AGENT_TOKEN("edp_agent_token");

    private final String sqlName;

    NotificationChannel(String sqlName) {
        this.sqlName = sqlName;
    }

    /** The name in LISTEN and pg_notify. */
    public String sqlName() {
        return sqlName;
    }
}
