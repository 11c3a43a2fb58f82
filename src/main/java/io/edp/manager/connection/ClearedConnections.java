package io.edp.manager.connection;

import io.swagger.v3.oas.annotations.media.Schema;

@Schema(description = "What a clear removed")
record ClearedConnections(@Schema(description = "Connections cleared", example = "12") int cleared) {
}
