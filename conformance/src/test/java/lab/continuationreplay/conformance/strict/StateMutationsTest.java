package lab.continuationreplay.conformance.strict;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import lab.continuationreplay.conformance.strict.StateMutations.Mutation;
import org.junit.jupiter.api.Test;

class StateMutationsTest {
    /** A state shaped like the lab servers' (version, payload, MAC); 'eyJh' is base64 of '{"a', 'AB-_' uses the URL alphabet. */
    private static final String STATE = "v1.eyJhIjoxfQ.AB-_cQ";

    @Test
    void segmentsSplitOnPunctuationOutsideBothBase64Alphabets() {
        assertEquals(List.of("v1", "eyJhIjoxfQ", "AB-_cQ"), StateMutations.segments(STATE).stream().map(s -> s.text()).toList());
        assertEquals(List.of("a+b/c=="), StateMutations.segments("a+b/c==").stream().map(s -> s.text()).toList());
        assertEquals(List.of("x", "y", "z"), StateMutations.segments("x:y~~z").stream().map(s -> s.text()).toList());
    }

    @Test
    void bitFlipsHitFirstMiddleAndLastOfEachSegmentInTheTwoHighBits() {
        List<Mutation> flips = StateMutations.bitFlips(STATE);
        // v1: positions 0 and 1 (middle = last); the others three positions each; two bits per position
        assertEquals(2 * 2 + 3 * 2 + 3 * 2, flips.size());
        assertEquals("segment 1 of 3, character 1, bit 5 of its base64 value", flips.get(0).label());
        // 'v' is 47; 47 ^ 32 = 15 is 'P'
        assertEquals("P1.eyJhIjoxfQ.AB-_cQ", flips.get(0).state());
    }

    @Test
    void paddingIsNeverFlipped() {
        for (Mutation flip : StateMutations.bitFlips("QQ==")) {
            assertTrue(flip.state().endsWith("=="), flip.toString());
        }
    }

    @Test
    void aNonBase64CharacterHasBitZeroOfItsCodeFlipped() {
        List<String> flipped = StateMutations.bitFlips("{}").stream().map(Mutation::state).toList();
        assertEquals(List.of("z}", "{|"), flipped);
    }

    @Test
    void truncationsKeepPrefixesAndDropTheLastSegment() {
        List<String> cuts = StateMutations.truncations(STATE).stream().map(Mutation::state).toList();
        assertEquals(List.of("v1.eyJhIjoxfQ.AB-_c", "v1.eyJhIjoxfQ.AB", "v1.eyJhIjo", "v", "v1.eyJhIjoxfQ"), cuts);
    }

    @Test
    void reEncodingsLeaveANonCanonicalSegmentAlone() {
        // "v1" decodes to one byte with spare bits set: its "bytes" are a guess, so it keeps its spelling.
        assertNull(StateMutations.canonicalBase64("v1"));
        List<String> spelled = StateMutations.reEncodings(STATE).stream().map(Mutation::state).toList();
        assertTrue(spelled.contains("v1.eyJhIjoxfQ==.AB-_cQ"), spelled.toString());
        assertTrue(spelled.contains("v1.eyJhIjoxfQ.AB+/cQ"), spelled.toString());
        assertTrue(spelled.contains("v1.eyJhIjoxfQ==.AB+/cQ=="), spelled.toString());
        assertTrue(spelled.stream().allMatch(s -> s.startsWith("v1.")), spelled.toString());
    }

    @Test
    void aHexStateHasNoOtherBase64Spelling() {
        assertEquals(List.of(), StateMutations.reEncodings("0123456789abcdef"));
    }

    @Test
    void bothAlphabetsInOneSegmentIsNotBase64() {
        assertNull(StateMutations.canonicalBase64("ab+-"));
        assertNull(StateMutations.canonicalBase64("abcde"));
        assertNull(StateMutations.canonicalBase64(""));
    }
}
