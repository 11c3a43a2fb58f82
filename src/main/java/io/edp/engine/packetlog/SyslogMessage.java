package io.edp.engine.packetlog;

import java.time.Instant;

/**
 * A log line as an RFC 5424 syslog message: facility local0, severity informational (PRI 134), version 1, the
 * line's time, the host, app name {@code edp}, no process id, message id {@code FIREWALL_PKTLOG} (as NSX sends
 * them), no structured data.
 */
final class SyslogMessage {

    static final String APP_NAME = "edp";
    static final String MESSAGE_ID = "FIREWALL_PKTLOG";

    private SyslogMessage() {
    }

    static String of(String hostName, String line, long wallMillis) {
        return "<134>1 " + LogLine.TIMESTAMP.format(Instant.ofEpochMilli(wallMillis)) + " " + hostName + " " + APP_NAME
                + " - " + MESSAGE_ID + " - " + line;
    }
}
