package io.edp.manager.api;

import java.net.URI;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTransientConnectionException;
import java.util.List;
import java.util.function.Predicate;

import jakarta.servlet.http.HttpServletRequest;

import io.edp.engine.process.FatalErrors;
import org.hibernate.exception.ConstraintViolationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.dao.OptimisticLockingFailureException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.http.converter.HttpMessageNotWritableException;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.authentication.InternalAuthenticationServiceException;
import org.springframework.security.core.AuthenticationException;
import org.springframework.web.HttpMediaTypeNotAcceptableException;
import org.springframework.web.HttpMediaTypeNotSupportedException;
import org.springframework.web.bind.MethodArgumentNotValidException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.method.annotation.HandlerMethodValidationException;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;
import org.springframework.web.servlet.resource.NoResourceFoundException;
import org.springframework.web.util.DisconnectedClientHelper;
import tools.jackson.core.JacksonException;

/**
 * Every error as an RFC 9457 problem detail ({@code application/problem+json}). Spring MVC's own errors (404 for
 * unknown paths, 405, 415, 400 for unreadable bodies …) come from the base class; this class adds the field list to
 * validation errors, says where malformed JSON breaks, and maps our exceptions and Spring Security's.
 */
@RestControllerAdvice
class ApiProblemHandler extends ResponseEntityExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(ApiProblemHandler.class);
    /** What Hikari's stand-in for a connection it closed throws, with no SQLState. */
    private static final String HIKARI_CLOSED_CONNECTION = "Connection is closed";

    private final DatabaseRequestProperties database;

    ApiProblemHandler(DatabaseRequestProperties database) {
        this.database = database;
    }

    @ExceptionHandler
    ResponseEntity<ProblemDetail> notFound(NotFoundException e) {
        return problem(HttpStatus.NOT_FOUND, e.getMessage());
    }

    @ExceptionHandler
    ResponseEntity<ProblemDetail> conflict(ConflictException e) {
        var body = ProblemDetail.forStatusAndDetail(HttpStatus.CONFLICT, e.getMessage());
        var response = ResponseEntity.status(HttpStatus.CONFLICT);
        e.existing().ifPresent(existing -> {
            body.setProperty("existing", existing);
            response.location(URI.create(existing));
        });
        return response.body(body);
    }

    /** 409 rather than 422: the request is valid, what refuses it is the state of the other hosts, which may change. */
    @ExceptionHandler
    ResponseEntity<ProblemDetail> overBudget(MemoryBudgetExceededException e) {
        var response = problem(HttpStatus.CONFLICT, e.getMessage());
        var body = response.getBody();
        body.setProperty("neededBytes", e.neededBytes());
        body.setProperty("availableBytes", e.availableBytes());
        body.setProperty("budgetBytes", e.budgetBytes());
        body.setProperty("hosts", e.hosts());
        return response;
    }

    @ExceptionHandler
    ResponseEntity<ProblemDetail> tooLarge(RequestBodyTooLargeException e) {
        return problem(HttpStatus.CONTENT_TOO_LARGE, e.getMessage());
    }

    @ExceptionHandler
    ResponseEntity<ProblemDetail> preconditionFailed(PreconditionFailedException e) {
        return problem(HttpStatus.PRECONDITION_FAILED, e.getMessage());
    }

    @ExceptionHandler
    ResponseEntity<ProblemDetail> invalid(InvalidRequestException e) {
        return withErrors(problem(HttpStatus.BAD_REQUEST, "The request has invalid fields.").getBody(), e.errors());
    }

    /** The database caught a clash that our checks could not see coming, such as two creates racing. */
    @ExceptionHandler
    ResponseEntity<ProblemDetail> integrityViolation(DataIntegrityViolationException e) {
        var cause = NestedExceptionUtils.getRootCause(e);
        var constraint = e.getCause() instanceof ConstraintViolationException violation
                ? violation.getConstraintName() : null;
        log.debug("Integrity violation: {}", cause == null ? e.getMessage() : cause.getMessage());
        return problem(HttpStatus.CONFLICT, "The request conflicts with existing data"
                + (constraint == null ? "." : " (constraint " + constraint + ")."));
    }

    @ExceptionHandler
    ResponseEntity<ProblemDetail> concurrentUpdate(OptimisticLockingFailureException e) {
        return problem(HttpStatus.PRECONDITION_FAILED,
                "The resource was changed by another request meanwhile; fetch it again and retry with its ETag.");
    }

    @ExceptionHandler
    ResponseEntity<ProblemDetail> unauthenticated(AuthenticationException e, HttpServletRequest request) {
        if (e instanceof InternalAuthenticationServiceException) {
            return unexpected(e, request); // the named accounts could not be read: 503 while the database is away
        }
        if (request.getRequestURI().startsWith(AgentReports.PATH)) {
            return problem(HttpStatus.UNAUTHORIZED, "This endpoint needs the host's current agent token "
                    + "(Authorization: Bearer); issuing a new token replaces the previous one.");
        }
        return problem(HttpStatus.UNAUTHORIZED,
                "This endpoint needs HTTP Basic credentials of a viewer or operator account.");
    }

    @ExceptionHandler
    ResponseEntity<ProblemDetail> denied(AccessDeniedException e) {
        return problem(HttpStatus.FORBIDDEN,
                "Your account may not do this: changes, accounts and the audit trail need the operator role.");
    }

    @ExceptionHandler
    ResponseEntity<ProblemDetail> busy(UnavailableException e, HttpServletRequest request) {
        log.warn("{} {} answered 503: {}", request.getMethod(), request.getRequestURI(), e.getMessage());
        return unavailable(e.getMessage());
    }

    @ExceptionHandler
    ResponseEntity<ProblemDetail> unexpected(Exception e, HttpServletRequest request) {
        FatalErrors.haltOnOutOfMemory(e); // Spring wraps an Error of a handler in a ServletException
        if (clientGone(e)) {
            return null;
        }
        var unreachable = databaseUnreachable(e);
        if (unreachable != null) {
            // an outage fails many requests alike: one line each, no stack trace
            log.warn("{} {} answered 503, the database is unavailable: {} ({})", request.getMethod(),
                    request.getRequestURI(), unreachable.getMessage(),
                    NestedExceptionUtils.getMostSpecificCause(e).toString());
            return unavailable("The database is unavailable; retry later.");
        }
        var clash = lockClash(e);
        if (clash != null) {
            // PostgreSQL rolled the whole transaction back: nothing was changed, and the same request may succeed now
            log.warn("{} {} answered 503, it lost a lock clash in the database: {}", request.getMethod(),
                    request.getRequestURI(), clash.getMessage());
            return unavailable("The request clashed with a concurrent one in the database (SQLState "
                    + clash.getSQLState() + ", deadlock or serialization failure) and was rolled back with nothing "
                    + "changed; send it again.");
        }
        log.error("Unexpected error", e);
        return problem(HttpStatus.INTERNAL_SERVER_ERROR,
                "An unexpected error occurred; the manager's log has details.");
    }

    /** An answer that could not be written because its client went away is no warning (see {@link #clientGone}). */
    @Override
    protected ResponseEntity<Object> handleHttpMessageNotWritable(HttpMessageNotWritableException e,
            HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        return clientGone(e) ? null : super.handleHttpMessageNotWritable(e, headers, status, request);
    }

    /**
     * The client closed the connection before its answer was written (a poller stopping, a load generator at the end
     * of its run: "Broken pipe"): nobody to answer and nothing wrong here, so no answer and no warning.
     */
    private static boolean clientGone(Exception e) {
        if (!DisconnectedClientHelper.isClientDisconnectedException(e)) {
            return false;
        }
        log.debug("The client went away: {}", NestedExceptionUtils.getMostSpecificCause(e).toString());
        return true;
    }

    @Override
    protected ResponseEntity<Object> handleMethodArgumentNotValid(MethodArgumentNotValidException e,
            HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        var body = e.getBody();
        body.setDetail("The request has invalid fields.");
        return handleExceptionInternal(e, withErrors(body, FieldProblems.of(e.getBindingResult())).getBody(),
                headers, status, request);
    }

    @Override
    protected ResponseEntity<Object> handleHandlerMethodValidationException(HandlerMethodValidationException e,
            HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        var errors = e.getParameterValidationResults().stream()
                .flatMap(result -> result.getResolvableErrors().stream().map(error -> new FieldProblem(
                        result.getMethodParameter().getParameterName(), error.getDefaultMessage())))
                .toList();
        var body = e.getBody();
        body.setDetail("The request has invalid parameters.");
        return handleExceptionInternal(e, withErrors(body, errors).getBody(), headers, status, request);
    }

    @Override
    protected ResponseEntity<Object> handleHttpMediaTypeNotSupported(HttpMediaTypeNotSupportedException e,
            HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        var body = e.getBody();
        body.setDetail((e.getContentType() == null ? "The request has no Content-Type"
                : "Content-Type '" + e.getContentType() + "' is not accepted here")
                + "; send the body as " + MediaType.toString(e.getSupportedMediaTypes()) + ".");
        return handleExceptionInternal(e, body, headers, status, request);
    }

    @Override
    protected ResponseEntity<Object> handleHttpMediaTypeNotAcceptable(HttpMediaTypeNotAcceptableException e,
            HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        var body = e.getBody();
        body.setDetail("This endpoint answers only " + MediaType.toString(e.getSupportedMediaTypes())
                + "; send an Accept header that includes one of them (or none).");
        return handleExceptionInternal(e, body, headers, status, request);
    }

    @Override
    protected ResponseEntity<Object> handleNoResourceFoundException(NoResourceFoundException e,
            HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        var body = e.getBody();
        body.setDetail("No endpoint matches " + e.getHttpMethod() + " /" + e.getResourcePath() + ".");
        return handleExceptionInternal(e, body, headers, status, request);
    }

    @Override
    protected ResponseEntity<Object> handleHttpMessageNotReadable(HttpMessageNotReadableException e,
            HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        if (firstCause(e, RequestBodyTooLargeException.class::isInstance)
                instanceof RequestBodyTooLargeException tooLarge) {
            return handleExceptionInternal(e, tooLarge(tooLarge).getBody(), headers, HttpStatus.CONTENT_TOO_LARGE,
                    request);
        }
        var body = ProblemDetail.forStatus(status);
        if (e.getMostSpecificCause() instanceof JacksonException json) {
            var path = JsonProblems.path(json);
            var message = JsonProblems.message(json);
            body.setDetail("The request body is not valid JSON for this resource: " + message);
            if (!path.equals("$")) {
                withErrors(body, List.of(new FieldProblem(path, message)));
            }
        } else {
            body.setDetail("The request body is missing or unreadable.");
        }
        return handleExceptionInternal(e, body, headers, status, request);
    }

    /**
     * The SQL failure in {@code e}'s causes that says the database could not be reached or went away, or null when
     * the failure is of another kind: connection errors (SQLState class 08, the pool's timeout), the server shutting
     * down (57P0x), and the pool's refusal to use a connection it closed because it broke (a transaction that was
     * running when the database went away fails its rollback with this).
     */
    private static SQLException databaseUnreachable(Throwable e) {
        return (SQLException) firstCause(e, cause -> cause instanceof SQLTransientConnectionException
                || cause instanceof SQLNonTransientConnectionException
                || cause instanceof SQLException sql && (connectionState(sql.getSQLState())
                        || HIKARI_CLOSED_CONNECTION.equals(sql.getMessage())));
    }

    /**
     * The SQL failure in {@code e}'s causes that says the transaction lost a lock clash, or null: a deadlock (40P01),
     * a serialization failure (40001) or a lock not available (55P03). Checked by SQLState rather than by Spring's
     * PessimisticLockingFailureException, which a failure at commit (deferred triggers) does not always become.
     */
    private static SQLException lockClash(Throwable e) {
        return (SQLException) firstCause(e, cause -> cause instanceof SQLException sql
                && ("40P01".equals(sql.getSQLState()) || "40001".equals(sql.getSQLState())
                        || "55P03".equals(sql.getSQLState())));
    }

    /** The first of {@code error} and its causes that {@code wanted} accepts, or null. */
    private static Throwable firstCause(Throwable error, Predicate<Throwable> wanted) {
        for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (wanted.test(t)) {
                return t;
            }
        }
        return null;
    }

    private static boolean connectionState(String sqlState) {
        return sqlState != null && (sqlState.startsWith("08") || sqlState.startsWith("57P0"));
    }

    private ResponseEntity<ProblemDetail> unavailable(String detail) {
        return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE)
                .header(HttpHeaders.RETRY_AFTER, Long.toString(database.retryAfter().toSeconds()))
                .body(ProblemDetail.forStatusAndDetail(HttpStatus.SERVICE_UNAVAILABLE, detail));
    }

    private static ResponseEntity<ProblemDetail> problem(HttpStatus status, String detail) {
        return ResponseEntity.status(status).body(ProblemDetail.forStatusAndDetail(status, detail));
    }

    private static ResponseEntity<ProblemDetail> withErrors(ProblemDetail body, List<FieldProblem> errors) {
        body.setProperty("errors", errors);
        return ResponseEntity.status(body.getStatus()).body(body);
    }
}
