package lab.continuationreplay.cases;

/**
 * The cells {@code lab replicas} plays: servers as replicas in containers of their own, one ledger on a PostgreSQL in
 * another container. {@code r*} run within one SDK (two replicas of the SDK under test), {@code x*} across two SDKs.
 * The operation ids ({@code case-r1}) keep them apart from the frozen cases in any ledger.
 */
public enum ReplicaCaseId implements CaseKey {
    LOST_REPLY_OTHER_REPLICA("r1", "lost_reply_recovered_on_other_replica", "reconciled_applied_one_effect_across_replicas"),
    SAME_CONTINUATION_BOTH_REPLICAS("r2", "same_continuation_to_both_replicas_at_once", "one_apply_one_replay_one_effect"),
    CLOCK_AHEAD("r3", "replica_clock_30s_ahead", "state_from_the_future_refused_then_applied_once"),
    CUT_FROM_DATABASE("r4", "replica_cut_from_database_mid_commit", "clear_error_no_effect_then_applied_once"),
    DATABASE_KILLED("r5", "database_killed_between_commit_and_reply", "commit_survives_restart_reconciled_one_effect"),
    JAVA_COMMITS_TYPESCRIPT_RECOVERS("x1", "java_replica_commits_typescript_replica_recovers",
            "status_recovers_foreign_state_refused_one_effect"),
    TYPESCRIPT_COMMITS_JAVA_RECOVERS("x2", "typescript_replica_commits_java_replica_recovers",
            "status_recovers_foreign_state_refused_one_effect");

    private final Label label;

    ReplicaCaseId(String number, String seedName, String expected) {
        this.label = new Label(number, seedName, expected);
    }

    @Override
    public Label label() {
        return label;
    }

    /** Whether the cell runs within one SDK ({@code r*}) rather than across two ({@code x*}). */
    public boolean withinOneSdk() {
        return number().startsWith("r");
    }

    /** @throws IllegalArgumentException naming the known ids when {@code number} is none of them */
    public static ReplicaCaseId of(String number) {
        return CaseKey.byNumber(values(), number, "no replica cell " + number + " (the cells are r1..r5, x1, x2)");
    }
}
