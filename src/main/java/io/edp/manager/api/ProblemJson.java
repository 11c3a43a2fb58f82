package io.edp.manager.api;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;

import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import tools.jackson.databind.json.JsonMapper;

/**
 * Writes a problem detail straight to a servlet response, for the layers that answer before Spring MVC sees the
 * request: Tomcat's own rejections and Spring Security's firewall.
 */
final class ProblemJson {

    private ProblemJson() {
    }

    static void write(HttpServletResponse response, int status, String detail) throws IOException {
        var problem = new LinkedHashMap<String, Object>();
        problem.put("type", "about:blank");
        var known = HttpStatus.resolve(status);
        problem.put("title", known == null ? "Error" : known.getReasonPhrase());
        problem.put("status", status);
        problem.put("detail", detail);
        byte[] body = JsonMapper.shared().writeValueAsBytes(problem);
        response.setStatus(status);
        response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        response.setCharacterEncoding(StandardCharsets.UTF_8.name());
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
        response.flushBuffer();
    }
}
