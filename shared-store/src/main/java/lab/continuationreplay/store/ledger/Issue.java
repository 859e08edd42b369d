package lab.continuationreplay.store.ledger;

/** The deliberately non-idempotent effect: one row per successful write, so duplicates are visible. */
public record Issue(long id, String title, String body) {}
