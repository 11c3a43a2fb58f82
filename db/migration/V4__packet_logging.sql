-- Firewall packet logging: a per-rule log flag, the syslog servers every host's engine sends its packet log to,
-- and the hosts' and profiles' reserved telemetryDfwLogging switch turned into dfwLogging settings.

ALTER TABLE firewall_rule ADD COLUMN log boolean NOT NULL DEFAULT false;

CREATE TABLE syslog_server (
    id        bigint       GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    host      varchar(253) NOT NULL,
    port      integer      NOT NULL CHECK (port BETWEEN 1 AND 65535),
    transport varchar(3)   NOT NULL CHECK (transport IN ('UDP', 'TCP')),
    version   bigint       NOT NULL,
    CONSTRAINT syslog_server_unique UNIQUE (host, port, transport)
);

CREATE TRIGGER syslog_servers_changed AFTER INSERT OR UPDATE OR DELETE ON syslog_server
    FOR EACH STATEMENT EXECUTE FUNCTION every_host_changed();

UPDATE host_edp
   SET settings = (settings - 'telemetryDfwLogging')
                  || jsonb_build_object('dfwLogging', jsonb_build_object('enabled', settings -> 'telemetryDfwLogging'))
 WHERE settings ? 'telemetryDfwLogging';
UPDATE edp_profile
   SET settings = (settings - 'telemetryDfwLogging')
                  || jsonb_build_object('dfwLogging', jsonb_build_object('enabled', settings -> 'telemetryDfwLogging'))
 WHERE settings ? 'telemetryDfwLogging';
