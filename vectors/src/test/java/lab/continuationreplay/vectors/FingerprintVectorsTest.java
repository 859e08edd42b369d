package lab.continuationreplay.vectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

    @Test
    void theRelationsTheVectorsPromiseHold() {
        Map<String, String> d = digests();
        assertEquals(d.get("01_identical_retry"), d.get("08_concurrent_attempt_a"));
        assertEquals(d.get("02_never_admitted"), d.get("unsafe_new_identity_retry"));
        assertNotEquals(d.get("01_identical_retry"), d.get("04_changed_input_responses"));
        assertNotEquals(d.get("01_identical_retry"), d.get("06_different_principal"));
        assertNotEquals(d.get("01_identical_retry"), d.get("11_metadata_stripped"));
        assertNotEquals(d.get("01_identical_retry"), d.get("unsafe_new_identity_retry"));
        // The file header claims 09 coincides with 01; its continuation state differs, so it must not.
        assertNotEquals(d.get("01_identical_retry"), d.get("09_crash_after_commit"));
    }

    @Test
    void allOtherVectorsAreDistinct() {
        Map<String, String> d = digests();
        d.remove("08_concurrent_attempt_a");
        d.remove("unsafe_new_identity_retry");
        assertEquals(d.size(), d.values().stream().distinct().count());
    }

    @Test
    void aDifferentKeyChangesEveryDigest() {
        RequestFingerprint other = new RequestFingerprint(FingerprintKey.of(new byte[32]));
        for (FingerprintVectors.Vector vector : FingerprintVectors.load()) {
            assertNotEquals(FINGERPRINT.digest(vector.request()), other.digest(vector.request()), vector.name());
        }
    }
}
