package lab.continuationreplay.store.ledger;

/** What apply-once returns: the effect, its durable result text, whether this call replayed it, the row state. */
public record ApplyResult(long effectId, String result, boolean replayed, OperationState state) {}
