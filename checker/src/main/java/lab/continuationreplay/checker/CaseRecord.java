package lab.continuationreplay.checker;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import lab.continuationreplay.cases.CaseSpec;
import lab.continuationreplay.history.Format;
import lab.continuationreplay.history.Reply;
import lab.continuationreplay.vectors.ExactJson;

/**
 * One line of {@code results.jsonl}, derived from the history: the hashes the run recorded (and the checker found
 * again), the row and wire facts, the outcome, the violations and the status.
 */
public final class CaseRecord {
    /** A case's status. */
    public enum Status {
        PASS, FAIL, MACHINERY_ERROR,
        /** A client case failing in a cell exactly as its expected failure lists (lab clients only). */
        EXPECTED_FAILURE,
        /** A client case passing in a cell where it is listed as an expected failure: the list is stale. */
        NOW_PASSES;

        public String wire() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    private CaseRecord() {}

    public static ObjectNode of(CaseSpec spec, String sdk, CaseFacts facts, Map<String, String> hashes, String machineryError) {
        List<String> violations = Predicate.violations(spec, facts, sdk);
        ObjectNode record = Format.RESULTS.document();
        record.put("case_id", spec.id().number());
        record.put("name", spec.id().seedName());
        record.put("expected", spec.id().expected());
        record.put("sdk", sdk);
        record.set("artifact_hashes", ExactJson.mapper().valueToTree(new TreeMap<>(hashes)));
        record.set("independent_db", ExactJson.mapper().valueToTree(facts.db()));
        record.set("independent_wire", wire(facts.wire()));
        record.set("process_exit_codes", ExactJson.mapper().valueToTree(facts.exits()));
        record.set("outcome", Outcome.derive(spec, facts));
        record.set("violations", ExactJson.mapper().valueToTree(violations));
        Status status = machineryError != null ? Status.MACHINERY_ERROR : violations.isEmpty() ? Status.PASS : Status.FAIL;
        record.put("status", status.wire());
        if (machineryError != null) {
            record.put("machinery_error", machineryError);
        }
        return record;
    }

    /** The token's outline, not its content: e.g. {@code v1 + 1 base64url segment}. */
    static String tokenFormat(String token) {
        String[] parts = token.split("\\.", -1);
        return parts[0] + " + " + (parts.length - 1) + " base64url segment" + (parts.length == 2 ? "" : "s");
    }

    static JsonNode wire(WireFacts wire) {
        ObjectNode facts = JsonNodeFactory.instance.objectNode();
        ArrayNode calls = facts.putArray("calls");
        for (WireFacts.Call call : wire.calls()) {
            ObjectNode c = calls.addObject();
            c.put("source", call.source());
            c.put("id", call.id());
            c.put("tool", call.tool());
            c.put("continuation", call.continuation());
            c.put("state_present", call.statePresent());
            if (call.httpStatus() != null) {
                c.put("http_status", call.httpStatus());
            }
            if (!call.answered()) {
                c.putNull("reply");
                continue;
            }
            Reply reply = call.asReply();
            ObjectNode r = c.putObject("reply");
            r.put("shape", reply.raw().has("error") ? "jsonrpc_error" : reply.refused() ? "tool_result_isError" : "result");
            if (reply.raw().has("error")) {
                r.put("code", reply.raw().path("error").path("code").intValue());
            }
            r.put("refusal", reply.refusalText());
            r.put("result_type", reply.result().path("resultType").textValue());
            if (reply.inputRequired() && reply.requestState() != null) {
                r.put("request_state_format", tokenFormat(reply.requestState()));
            }
            r.set("structured", reply.structured().isMissingNode() ? null : reply.structured());
        }
        facts.set("protocol_versions", ExactJson.mapper().valueToTree(wire.protocolVersions()));
        facts.put("replies", wire.replies());
        facts.set("non_frame_lines", ExactJson.mapper().valueToTree(wire.nonFrames()));
        facts.put("handshake", "modern per-request envelope; no initialize");
        return facts;
    }
}
