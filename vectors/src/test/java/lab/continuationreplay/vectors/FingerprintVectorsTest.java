package lab.continuationreplay.vectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FingerprintVectorsTest {
    private static final RequestFingerprint FINGERPRINT =
            new RequestFingerprint(FingerprintKey.fromHex(FingerprintVectors.TEST_KEY_HEX, "test key"));

    private static Map<String, String> digests() {
        Map<String, String> digests = new LinkedHashMap<>();
        for (FingerprintVectors.Vector vector : FingerprintVectors.load()) {
            digests.put(vector.name(), FINGERPRINT.digest(vector.request()));
        }
        return digests;
    }

    @Test
    void theFileHoldsTheSeventeenSeedVectors() {
        List<FingerprintVectors.Vector> vectors = FingerprintVectors.load();
        assertEquals(17, vectors.size());
        assertEquals("00_control_single_round", vectors.get(0).name());
        assertEquals("special_and_integer_like_keys", vectors.get(16).name());
    }

    @Test
    void everyVectorHasALowercaseHexDigest() {
        digests().forEach((name, digest) -> assertTrue(digest.matches("[0-9a-f]{64}"), name + " -> " + digest));
    }

    @Test
    void vectorZeroGivesTheWorkedExampleDigest() {
        assertEquals(FingerprintVectors.VECTOR_00_DIGEST, digests().get("00_control_single_round"));
        assertEquals("8053811d58bacfa928adfe862a3e1bda8040d18feef86b1b6eca9cd807c2cd97", FingerprintVectors.VECTOR_00_DIGEST);
    }

    @Test
    void vectorZeroBindsTheOpaqueFieldsAsTheWorkedExampleShows() {
        LogicalRequest request = FingerprintVectors.load().get(0).request();
        assertEquals("d4d85246fe21047dd450f54774a06f90fab65dab0476eab70af3aac5da739cfc",
                FINGERPRINT.bindOpaqueField(RequestFingerprint.CONTINUATION_STATE, request.continuationState()));
        assertEquals("41f2c8de4cba8e1429b26d4320fc7f3d93f513f04356c17c45b95ba60001de98",
                FINGERPRINT.bindOpaqueField(RequestFingerprint.INPUT_RESPONSES, request.inputResponses()));
    }

    /** The file's own expectations ({@code "expected"}), shared with the TypeScript tests. */
    private static JsonNode expected() {
        return ExactJson.parse(FingerprintVectors.resourceText(FingerprintVectors.VECTORS_RESOURCE)).get("expected");
    }

    @Test
    void theExpectationsAreForTheTestKey() {
        JsonNode expected = expected();
        assertEquals("test-only-cross-language-key-32b", expected.get("key_ascii").textValue());
        assertEquals(HexFormat.of().formatHex(expected.get("key_ascii").textValue().getBytes(StandardCharsets.US_ASCII)),
                expected.get("key_hex").textValue());
        assertEquals(FingerprintVectors.TEST_KEY_HEX, expected.get("key_hex").textValue());
    }

    @Test
    void theFileAgreesWithTheWorkedExample() {
        assertEquals(FingerprintVectors.VECTOR_00_DIGEST, expected().get("digests").get("00_control_single_round").textValue());
    }

    @Test
    void everyVectorMatchesTheDigestTheFileExpects() {
        Map<String, String> pinned = new LinkedHashMap<>();
        expected().get("digests").fields().forEachRemaining(e -> pinned.put(e.getKey(), e.getValue().textValue()));
        assertEquals(List.copyOf(pinned.keySet()), List.copyOf(digests().keySet()), "one digest per vector, in file order");
        assertEquals(pinned, digests());
    }

    /** The accessors lab vectors reads give the file's own expectations, in file order. */
    @Test
    void theAccessorsReadTheFilesExpectations() {
        assertEquals(List.copyOf(digests().keySet()), List.copyOf(FingerprintVectors.expectedDigests().keySet()));
        assertEquals(digests(), FingerprintVectors.expectedDigests());
        List<FingerprintVectors.Relation> relations = FingerprintVectors.expectedRelations();
        assertEquals(expected().get("relations").size(), relations.size());
        assertEquals("01_identical_retry == 08_concurrent_attempt_a", relations.get(0).describe());
        assertTrue(relations.stream().allMatch(r -> r.why() != null && !r.why().isBlank()), relations.toString());
    }

    @Test
    void theRelationsTheFilePromisesHold() {
        Map<String, String> d = digests();
        JsonNode relations = expected().get("relations");
        assertTrue(relations.size() >= 7, "the seed's relations and the 09 correction");
        for (JsonNode relation : relations) {
            String left = relation.get("left").textValue();
            String right = relation.get("right").textValue();
            assertTrue(d.containsKey(left) && d.containsKey(right), relation.toString());
            assertEquals(relation.get("equal").booleanValue(), d.get(left).equals(d.get(right)), relation.toString());
        }
    }

    /** Equal digests exactly where the relations say equal: every other pair of vectors differs. */
    @Test
    void noTwoVectorsCoincideUnlessARelationSaysSo() {
        Map<String, String> group = new LinkedHashMap<>();
        digests().keySet().forEach(name -> group.put(name, name));
        for (JsonNode relation : expected().get("relations")) {
            if (relation.get("equal").booleanValue()) {
                String from = group.get(relation.get("right").textValue());
                String to = group.get(relation.get("left").textValue());
                group.replaceAll((name, g) -> g.equals(from) ? to : g);
            }
        }
        Map<String, String> d = digests();
        for (String a : d.keySet()) {
            for (String b : d.keySet()) {
                assertEquals(group.get(a).equals(group.get(b)), d.get(a).equals(d.get(b)), a + " vs " + b);
            }
        }
    }

    @Test
    void aDifferentKeyChangesEveryDigest() {
        RequestFingerprint other = new RequestFingerprint(FingerprintKey.of(new byte[32]));
        for (FingerprintVectors.Vector vector : FingerprintVectors.load()) {
            assertNotEquals(FINGERPRINT.digest(vector.request()), other.digest(vector.request()), vector.name());
        }
    }
}
