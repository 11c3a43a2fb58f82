package io.edp.engine.verifier;

import java.time.Instant;

/**
 * A fast-path hit the live verifier found the slow path would decide differently: when, by which worker under
 * which generation, the flow key, the action the cache gave ({@code cached}) and the slow path's ({@code slowPath}).
 */
public record Mismatch(Instant at, int worker, int generation, String flow, String cached, String slowPath) {
}
