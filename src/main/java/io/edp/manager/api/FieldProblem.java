package io.edp.manager.api;

import io.swagger.v3.oas.annotations.media.Schema;

/** One entry of a problem's {@code errors} array: which field of the request is wrong, and why. */
@Schema(description = "A field of the request that is wrong, and why")
public record FieldProblem(
        @Schema(description = "Path of the field in the request body or query", example = "numaNodes[0].cpuCores")
        String field,
        @Schema(description = "What is wrong with it", example = "must not be empty")
        String message) {
}
