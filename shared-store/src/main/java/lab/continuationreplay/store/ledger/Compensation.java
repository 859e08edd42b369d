package lab.continuationreplay.store.ledger;

/** A compensation attempt; it is its own row and never rewrites or deletes the issue it compensates. */
public record Compensation(long id, long issueId, String kind, String outcome) {}
