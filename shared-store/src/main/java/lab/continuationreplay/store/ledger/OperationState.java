package lab.continuationreplay.store.ledger;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;
import java.util.Optional;

/**
 * The state of an {@code operations} row (seed spec §5.1). The column keeps the seed's lowercase text, which is also
 * what the wire carries in a {@code create_guarded_issue} result, so ledger files and transcripts stay comparable
 * with the seed's; the text is mapped to the enum only where a row is read or written.
 */
public enum OperationState {
    /** The row exists and the effect is not settled: a crash inside a partial operation leaves this. */
    IN_PROGRESS("in_progress"),
    APPLIED("applied"),
    /** The first effect is durable but a follow-up step failed; the effect is never removed. */
    PARTIAL("partial");

    private final String stored;

    OperationState(String stored) {
        this.stored = stored;
    }

    /** The text in the {@code state} column and in a result's {@code state} key. */
    @JsonValue
    public String stored() {
        return stored;
    }

    /** The state a stored text names; empty for anything else (the schema's CHECK should have made that impossible). */
    public static Optional<OperationState> fromStored(String stored) {
        return Arrays.stream(values()).filter(state -> state.stored.equals(stored)).findFirst();
    }

    /** A row that holds an effect the caller can be given back: a replay returns it. */
    boolean settled() {
        return this == APPLIED || this == PARTIAL;
    }
}
