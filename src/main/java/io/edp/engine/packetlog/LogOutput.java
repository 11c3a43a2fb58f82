package io.edp.engine.packetlog;

import java.io.IOException;

/** Where formatted lines go: a syslog server or the local file. Drainer thread only. */
sealed interface LogOutput extends AutoCloseable permits SyslogUdp, SyslogTcp, RotatingFile {

    /** Takes one line (without a newline); throws when it could not be delivered. */
    void write(String line, long wallMillis) throws IOException;

    /** Pushes out what is buffered. */
    void flush() throws IOException;

    @Override
    void close();
}
