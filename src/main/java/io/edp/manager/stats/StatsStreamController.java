package io.edp.manager.stats;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.UUID;

import io.edp.manager.api.InvalidRequestException;
import io.edp.manager.api.WithoutDatabase;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

@RestController
@Tag(name = "Statistics")
@WithoutDatabase // reads the engines in memory; an open stream holds no database connection or permit
class StatsStreamController {

    private final StatsStreams streams;

    StatsStreamController(StatsStreams streams) {
        this.streams = streams;
    }

    @GetMapping(path = "/api/v1/hosts/{hostId}/stats/stream", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
    @Operation(operationId = "streamStats", summary = "Server-sent events: a statistics snapshot per interval",
            description = "One `snapshot` event per interval (its id counts from 1), each holding what the /stats "
                    + "endpoints answer (threads, flow cache, TLB, NIC queues, top 10 flows) and the traffic run, "
                    + "from one engine snapshot. When the host's engine goes (the host was deleted) an `end` event "
                    + "follows and the response completes. 503 when the manager already serves "
                    + "edp.stats-stream.max-streams streams.",
            responses = {
                @ApiResponse(responseCode = "200", description = "The event stream",
                        content = @Content(mediaType = MediaType.TEXT_EVENT_STREAM_VALUE,
                                schema = @Schema(implementation = StatsSnapshot.class))),
                @ApiResponse(responseCode = "503", description = "As many streams as allowed are open",
                        content = @Content(mediaType = MediaType.APPLICATION_PROBLEM_JSON_VALUE,
                                schema = @Schema(ref = "#/components/schemas/Problem")))})
    SseEmitter stream(@PathVariable UUID hostId,
                      @Parameter(description = "Time between snapshots, 200ms to 60s (e.g. 500ms, 2s, PT1S)",
                              example = "1s")
                      @RequestParam(defaultValue = "1s") String interval) {
        return streams.open(hostId, interval(interval));
    }

    private static Duration interval(String text) {
        Duration interval;
        try {
            interval = DurationStyle.detectAndParse(text);
        } catch (IllegalArgumentException | DateTimeParseException e) {
            throw new InvalidRequestException("interval", "must be a duration such as 500ms, 2s or PT1S");
        }
        if (interval.compareTo(StatsStreams.MIN_INTERVAL) < 0 || interval.compareTo(StatsStreams.MAX_INTERVAL) > 0) {
            throw new InvalidRequestException("interval", "must be between 200ms and 60s");
        }
        return interval;
    }
}
