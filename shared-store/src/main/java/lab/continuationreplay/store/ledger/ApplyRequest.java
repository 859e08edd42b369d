package lab.continuationreplay.store.ledger;

import java.util.Objects;
import java.util.OptionalDouble;
import lab.continuationreplay.store.OperationIdentity;

/**
 * One apply-once request, the same for the atomic and the partial mode: identity, binding fingerprint, the effect's
 * title and body, the continuation's deadlines, and the clock reading they are judged at.
 *
 * <p>{@code now} is a reading of the <em>injected</em> clock in epoch seconds ({@code WIRE_CLOCK_EPOCH}, through the
 * guard), or empty for a request with no clock at all, the seed's {@code now_epoch=None}. There is deliberately no
 * "now from the system clock": the ledger never reads a clock, because cases 07 and 10 expire deadlines by moving
 * the injected clock and a run must replay the same on any machine. Empty is therefore not a default but an absence,
 * accepted only where nothing can expire (a bounded request or a bounded row's replay without a reading is refused).
 * An {@code OptionalDouble} states that in the type; the nullable {@code Double} it replaces let a forgotten argument
 * pass as "no clock".
 */
public record ApplyRequest(
        OperationIdentity identity,
        String fingerprint,
        String title,
        String body,
        Deadlines deadlines,
        OptionalDouble now) {

    public ApplyRequest {
        Objects.requireNonNull(identity, "identity");
        Objects.requireNonNull(deadlines, "deadlines");
        Objects.requireNonNull(now, "now: use OptionalDouble.empty() for a request without a clock");
    }

    /** A request judged at {@code now} on the injected clock: what the guard sends. */
    public static ApplyRequest at(OperationIdentity identity, String fingerprint, String title, String body,
            Deadlines deadlines, double now) {
        return new ApplyRequest(identity, fingerprint, title, body, deadlines, OptionalDouble.of(now));
    }

    /** A request with no deadlines and no clock: nothing about it can expire. */
    public static ApplyRequest unbounded(OperationIdentity identity, String fingerprint, String title, String body) {
        return new ApplyRequest(identity, fingerprint, title, body, Deadlines.UNBOUNDED, OptionalDouble.empty());
    }
}
