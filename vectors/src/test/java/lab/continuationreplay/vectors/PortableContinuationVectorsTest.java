package lab.continuationreplay.vectors;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

/**
 * The fingerprint half of the portable continuation vectors (seed spec §14.4): a candidate whose fingerprint equals
 * the base's replays, any other conflicts, a stripped state is rejected. The recovery half needs the consumer of
 * shared-store and is checked there.
 */
class PortableContinuationVectorsTest {
    @Test
    void fingerprintDecidesReplayConflictAndReject() {
        JsonNode file = FingerprintVectors.portableContinuation();
        assertEquals(1, file.get("version").intValue());
        RequestFingerprint fingerprint = new RequestFingerprint(FingerprintKey.fromHex(file.get("keyHex").textValue(), "keyHex"));
        ObjectNode base = (ObjectNode) file.get("base");
        String baseDigest = fingerprint.digest(LogicalRequestReader.read(base));
        int checked = 0;
        for (JsonNode vector : file.get("vectors")) {
            if (vector.has("transport")) {
                continue;
            }
            ObjectNode candidate = base.deepCopy();
            candidate.setAll((ObjectNode) vector.get("changes"));
            String outcome;
            if (candidate.get("continuation_state").isNull()) {
                outcome = "reject";
            } else {
                outcome = fingerprint.digest(LogicalRequestReader.read(candidate)).equals(baseDigest) ? "replay" : "conflict";
            }
            assertEquals(vector.get("expected").textValue(), outcome, vector.get("name").textValue());
            checked++;
        }
        assertEquals(5, checked);
    }

    @Test
    void droppingInputResponsesWouldMisclassifyAChangedAnswer() {
        // The planted flaw the seed's harness must catch: fingerprinting without input_responses.
        JsonNode file = FingerprintVectors.portableContinuation();
        RequestFingerprint fingerprint = new RequestFingerprint(FingerprintKey.fromHex(file.get("keyHex").textValue(), "keyHex"));
        ObjectNode base = ((ObjectNode) file.get("base")).deepCopy();
        ObjectNode changed = base.deepCopy();
        changed.setAll((ObjectNode) file.get("vectors").get(1).get("changes"));
        base.remove("input_responses");
        changed.remove("input_responses");
        assertEquals(fingerprint.digest(LogicalRequestReader.read(base)), fingerprint.digest(LogicalRequestReader.read(changed)));
    }
}
