package lab.continuationreplay.cases;

/** The twelve frozen cases of the seed (spec §9): the number, the seed's name and its expected classification. */
public enum CaseId implements CaseKey {
    IDENTICAL_RETRY("01", "identical_retry", "stored_result_one_effect"),
    NEVER_ADMITTED("02", "never_admitted", "unknown_no_retry"),
    LOST_REPLY_THEN_EXPLICIT_REPLAY("03", "lost_reply_then_explicit_replay", "reconciled_applied_one_effect"),
    CHANGED_INPUT_RESPONSES("04", "changed_input_responses", "conflict_before_second_effect"),
    CHANGED_REQUEST_STATE("05", "changed_request_state", "conflict_before_second_effect"),
    DIFFERENT_PRINCIPAL("06", "different_principal", "unauthorized_not_equivalent"),
    AUTHORITY_EXPIRES("07", "authority_expires_before_reconciliation", "write_rejected_observe_without_fresh_write_authority"),
    CONCURRENT_ATTEMPTS("08", "concurrent_identical_attempts", "joined_one_apply_one_replay_one_effect"),
    CRASH_AFTER_COMMIT("09", "crash_after_commit_before_reply", "unknown_then_authoritative_applied_no_redispatch"),
    RETENTION_EXPIRY("10", "operation_replay_retention_expiry", "valid_token_rejected_after_retention_tombstone_retained"),
    REQUEST_STATE_STRIPPED("11", "request_state_stripped", "unsupported_rejected_no_effect"),
    PARTIAL_EFFECT("12", "partial_effect_failed_compensation", "durable_partial_no_first_effect_replay");

    private final Label label;

    CaseId(String number, String seedName, String expected) {
        this.label = new Label(number, seedName, expected);
    }

    @Override
    public Label label() {
        return label;
    }

    /** @throws IllegalArgumentException naming the known ids when {@code number} is none of them */
    public static CaseId of(String number) {
        return CaseKey.byNumber(values(), number, "no frozen case " + number + " (the cases are 01..12)");
    }
}
