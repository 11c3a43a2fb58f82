package io.edp.manager.api;

import java.io.IOException;

import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tomcat's error page as a problem detail instead of HTML: what Tomcat refuses before any servlet runs (an encoded
 * NUL or '/' in the path, a malformed request line) and any error nothing else rendered.
 */
public class ProblemErrorReportValve extends ErrorReportValve {

    private static final Logger log = LoggerFactory.getLogger(ProblemErrorReportValve.class);

    @Override
    protected void report(Request request, Response response, Throwable throwable) {
        int status = response.getStatus();
        if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
            return;
        }
        try {
            response.resetBuffer();
            ProblemJson.write(response, status, detail(status, response.getMessage()));
        } catch (IOException | IllegalStateException e) {
            log.debug("Could not write the error report of a {} response", status, e);
        }
    }

    private static String detail(int status, String reason) {
        String because = reason == null || reason.isBlank() ? "" : " (" + reason + ")";
        return status == 400
                ? "The server refused the request line or path" + because + "; send a plain path: no encoded NUL, "
                        + "'/', '\\' or '%', no ';' parameters, no '.' or '..' segments."
                : "The server could not serve this request" + because + ".";
    }
}
