package io.edp.manager.api;

import java.util.List;

import io.swagger.v3.oas.annotations.media.Schema;
import org.springframework.data.domain.Page;

/** One page of a list: the items, and where this page sits in the whole. */
@Schema(description = "One page of a list")
public record PageResponse<T>(
        @Schema(description = "The items of this page, in the requested order") List<T> items,
        @Schema(description = "Where this page sits in the whole list") PageMetadata page) {

    @Schema(description = "Position and totals of a page")
    public record PageMetadata(
            @Schema(description = "Page number, from 0", example = "0") int number,
            @Schema(description = "Requested page size", example = "20") int size,
            @Schema(description = "Number of items in the whole list", example = "3") long totalElements,
            @Schema(description = "Number of pages", example = "1") int totalPages) {
    }

    public static <T> PageResponse<T> of(Page<T> page) {
        return new PageResponse<>(page.getContent(),
                new PageMetadata(page.getNumber(), page.getSize(), page.getTotalElements(), page.getTotalPages()));
    }
}
