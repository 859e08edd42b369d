package lab.continuationreplay.store.ledger;

/** Places inside apply-once where the fault lab can cut a process (seed spec §7.3), with the exit status it uses. */
public enum CutPoint {
    /** Inside the atomic transaction, after the ledger row; nothing is durable yet. */
    AFTER_LEDGER_INSERT("after-ledger-insert", 71),
    /** Inside the atomic transaction, after the issue row; nothing is durable yet. */
    AFTER_ISSUE_INSERT("after-issue-insert", 72),
    /** Partial mode, after the first effect committed; the watcher and compensation steps have not run. */
    AFTER_PARTIAL_FIRST_COMMIT("after-partial-first-commit", 73);

    private final String label;
    private final int exitStatus;

    CutPoint(String label, int exitStatus) {
        this.label = label;
        this.exitStatus = exitStatus;
    }

    public String label() {
        return label;
    }

    public int exitStatus() {
        return exitStatus;
    }
}
