package io.edp.manager.api;

import io.swagger.v3.oas.annotations.Hidden;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.boot.webmvc.error.ErrorController;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The servlet container's error page ({@code /error}) as a problem detail, in place of Boot's own JSON: errors sent
 * by a layer below Spring MVC's handlers land here. Asked for directly, {@code /error} is a path like any other
 * that matches no endpoint.
 */
@Hidden // the container's, not an operation of the API
@RestController
class ProblemErrorController implements ErrorController {

    @RequestMapping("${server.error.path:/error}")
    ResponseEntity<ProblemDetail> error(HttpServletRequest request) {
        if (!(request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE) instanceof Integer code)) {
            return problem(HttpStatus.NOT_FOUND,
                    "No endpoint matches " + request.getMethod() + " " + request.getRequestURI() + ".");
        }
        var status = HttpStatus.resolve(code);
        if (status == null || code < 400) {
            status = HttpStatus.INTERNAL_SERVER_ERROR;
        }
        var path = request.getAttribute(RequestDispatcher.ERROR_REQUEST_URI);
        return problem(status, switch (status) {
            case BAD_REQUEST -> "The request was refused before reaching an endpoint; check its path, headers and "
                    + "body against the API documentation (/v3/api-docs).";
            case NOT_FOUND -> "No endpoint matches " + path + "; see /v3/api-docs for the API's paths.";
            case INTERNAL_SERVER_ERROR -> "An unexpected error occurred; the manager's log has details.";
            default -> "The request to " + path + " failed: " + status.getReasonPhrase() + ".";
        });
    }

    private static ResponseEntity<ProblemDetail> problem(HttpStatus status, String detail) {
        return ResponseEntity.status(status).contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .body(ProblemDetail.forStatusAndDetail(status, detail));
    }
}
