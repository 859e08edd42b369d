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

    /**
     * Digests of all 17 vectors under the public test key, as computed by an independent Python transcription of the
     * seed spec (§2.3–2.5); the TypeScript tests pin the same table. Vector 00 is the seed's own pinned digest.
     */
    @Test
    void everyVectorMatchesTheIndependentlyComputedDigest() {
        Map<String, String> expected = new LinkedHashMap<>();
        expected.put("00_control_single_round", "8053811d58bacfa928adfe862a3e1bda8040d18feef86b1b6eca9cd807c2cd97");
        expected.put("01_identical_retry", "ee4f94fa05dcf57deaddf3e31dc6d606b3662fac3c55d1f04565816f36abb757");
        expected.put("02_never_admitted", "28ac100a37f772ab0a9843dc092081186e6ece64796fc001a7d1f7cb4205ae9f");
        expected.put("03_lost_reply_replay", "7fbc69e28ce799037820d894859441d607f9631a316d77971c4f4d75c53eaad4");
        expected.put("04_changed_input_responses", "356c004404c208575a013d6435135f63c9428eb39ed48af395f7d1676fffb160");
        expected.put("05_tampered_request_state", "c33f8b57c78f17b55931fd741118d5da0bff9f77ce1bb30b354b9c6c54eb032e");
        expected.put("06_different_principal", "fc2e84c0e49ea4d739e84ca999109209ea17c32475a309f4fd60542a0b8ee82e");
        expected.put("07_approval_expired", "bf880c987908ebd238bdabe15425922ab78c30b44507f539d513c3f9d3498421");
        expected.put("08_concurrent_attempt_a", "ee4f94fa05dcf57deaddf3e31dc6d606b3662fac3c55d1f04565816f36abb757");
        expected.put("09_crash_after_commit", "0460b6190615d8e04480f7425de8a1b846c1bd62c1848154fa6516ffc47bfe66");
        expected.put("10_key_retention_expired", "48c6379923a0ec6f414e1ee2ce4a0da191b834b80663b2112b89976fad3194f2");
        expected.put("11_metadata_stripped", "fdbb5eff3af85f4a117e949ec3893f4cda29199ed72032914fb214c9aa074358");
        expected.put("12_partial_then_compensated", "eeaa23c8b030221f05ed67ac1bf2147896d89152ae2578d421be4cd43ab6303a");
        expected.put("unsafe_new_identity_retry", "28ac100a37f772ab0a9843dc092081186e6ece64796fc001a7d1f7cb4205ae9f");
        expected.put("unicode_scalar_order_and_utf8", "d8e92cc253c773276b38c53ec37fc468544dd7e3df7d6cb01f7dbed47f58c8f1");
        expected.put("maximum_safe_integer", "6af726ac8ad54dd1dd677137fe985dcb5283560281c98c2d03139fb966674308");
        expected.put("special_and_integer_like_keys", "dd0860a5aefd3899ca4d147586939a7d08a8992aeb236c3a892db3cb6d61a5e5");
        assertEquals(expected, digests());
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
