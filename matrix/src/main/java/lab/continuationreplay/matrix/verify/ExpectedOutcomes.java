package lab.continuationreplay.matrix.verify;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;
import lab.continuationreplay.vectors.ExactJson;

/**
 * The frozen semantic outcome of every case (seed spec §9.2–9.13, in SDK-independent words). Both SDKs must reduce
 * to exactly these; a difference is a failed case, not a variant.
 */
public final class ExpectedOutcomes {
    private static final Map<String, String> OUTCOMES = Map.ofEntries(
            Map.entry("01", "{\"effects\":1,\"operations\":1,\"replayed_flags\":[false,true],\"same_result\":true}"),
            Map.entry("02", "{\"consumer_action\":\"stop\",\"effects\":0,\"status\":\"unknown\"}"),
            Map.entry("03", "{\"consumer_action\":\"return_stored_result\",\"crash_exit\":70,\"effects\":1,"
                    + "\"explicit_replay\":\"replayed\",\"reconciled\":\"applied\",\"transport\":\"unknown\"}"),
            Map.entry("04", "{\"effects\":1,\"mechanism\":\"operation_conflict\"}"),
            Map.entry("05", "{\"effects\":1,\"tampered_state\":\"request_state_rejected\",\"valid_changed_state\":\"operation_conflict\"}"),
            Map.entry("06", "{\"alice_identity_refused\":true,\"effects\":1,\"ledger_binding\":\"operation_conflict\","
                    + "\"other_principal_status\":\"unknown\",\"sdk_principal_binding\":\"request_state_rejected\"}"),
            Map.entry("07", "{\"consumer_action\":\"return_stored_result\",\"effects\":1,\"fresh_write_authorized\":false,"
                    + "\"mechanism\":\"operation_authority_expired\",\"readback\":\"applied\"}"),
            Map.entry("08", "{\"effects\":1,\"processes\":2,\"replayed_flags\":[false,true],\"same_result\":true}"),
            Map.entry("09", "{\"consumer_action\":\"return_stored_result\",\"crash_exit\":70,\"effects\":1,"
                    + "\"reconciled\":\"applied\",\"redispatched\":false,\"transport\":\"unknown\"}"),
            Map.entry("10", "{\"application_expiry\":\"operation_retention_expired\",\"effects\":1,"
                    + "\"fresh_issuance\":\"operation_conflict\",\"operations\":1,\"sdk_expiry\":\"request_state_rejected\"}"),
            Map.entry("11", "{\"effects\":0,\"mechanism\":\"unsupported_continuation\",\"valid_initial_round\":\"input_required\"}"),
            Map.entry("12", "{\"consumer_action\":\"stop\",\"effects\":1,\"failed_compensations\":1,\"readback\":\"partial\","
                    + "\"replayed_flags\":[false,true],\"state\":\"partial\",\"step_events\":4,\"watchers\":0}"));

    private ExpectedOutcomes() {}

    public static JsonNode of(String caseId) {
        String outcome = OUTCOMES.get(caseId);
        if (outcome == null) {
            throw new IllegalArgumentException("no frozen outcome for case " + caseId);
        }
        return ExactJson.parse(outcome);
    }
}
