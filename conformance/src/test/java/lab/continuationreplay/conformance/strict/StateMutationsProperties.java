package lab.continuationreplay.conformance.strict;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import lab.continuationreplay.conformance.strict.StateMutations.Mutation;
import lab.continuationreplay.conformance.strict.StateMutations.Segment;
import lab.continuationreplay.conformance.strict.StateMutations.Spelling;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.NotEmpty;
import net.jqwik.api.constraints.StringLength;

/**
 * The laws the mutation checks rest on. If a "mutation" could equal the original, a server accepting it would be
 * failed for accepting its own valid state; if a "re-encoding" could change the bytes, a server refusing it would
 * be right for the wrong reason; if a bit flip could land on spare bits only, a lenient decoder would read the
 * original and pass as an integrity failure.
 */
class StateMutationsProperties {
    /** A token the way servers build them: 1–4 segments of base64 in one spelling each, joined by dots. */
    record Token(String text, List<byte[]> segments, List<Spelling> spellings) {}

    @Provide
    Arbitrary<Token> tokens() {
        Arbitrary<byte[]> bytes = Arbitraries.bytes().array(byte[].class).ofMinSize(1).ofMaxSize(48);
        Arbitrary<Spelling> spelling = Arbitraries.of(Spelling.class);
        return Combinators.combine(bytes.list().ofMinSize(1).ofMaxSize(4), spelling.list().ofSize(4)).as((segments, spellings) -> {
            List<String> parts = new ArrayList<>();
            for (int i = 0; i < segments.size(); i++) {
                parts.add(spellings.get(i).encode(segments.get(i)));
            }
            return new Token(String.join(".", parts), segments, spellings.subList(0, segments.size()));
        });
    }

    @Property
    void everyBitFlipChangesExactlyOneCharacter(@ForAll @NotEmpty @StringLength(max = 200) String state) {
        for (Mutation flip : StateMutations.bitFlips(state)) {
            assertEquals(state.length(), flip.state().length());
            int differing = 0;
            for (int i = 0; i < state.length(); i++) {
                differing += state.charAt(i) == flip.state().charAt(i) ? 0 : 1;
            }
            assertEquals(1, differing, flip.label());
        }
    }

    @Property
    void aBitFlipInABase64SegmentChangesItsBytesAndStaysBase64(@ForAll("tokens") Token token) {
        List<Mutation> flips = StateMutations.bitFlips(token.text());
        assertFalse(flips.isEmpty());
        for (Mutation flip : flips) {
            List<Segment> before = StateMutations.segments(token.text());
            List<Segment> after = StateMutations.segments(flip.state());
            assertEquals(before.size(), after.size(), flip.label());
            int changed = 0;
            for (int i = 0; i < before.size(); i++) {
                if (!before.get(i).text().equals(after.get(i).text())) {
                    changed++;
                    byte[] decoded = StateMutations.canonicalBase64(after.get(i).text());
                    assertNotNull(decoded, flip.label() + ": " + after.get(i).text());
                    assertFalse(Arrays.equals(token.segments().get(i), decoded), "a flip only of spare bits: " + flip.label());
                }
            }
            assertEquals(1, changed);
        }
    }

    @Property
    void everyBitFlipIsPlacedInEverySegment(@ForAll("tokens") Token token) {
        List<String> labels = StateMutations.bitFlips(token.text()).stream().map(Mutation::label).toList();
        int segments = token.segments().size();
        for (int i = 1; i <= segments; i++) {
            String prefix = "segment " + i + " of " + segments + ",";
            assertTrue(labels.stream().anyMatch(l -> l.startsWith(prefix)), prefix + " " + labels);
        }
    }

    @Property
    void everyTruncationIsAShorterNonEmptyPrefix(@ForAll @StringLength(max = 200) String state) {
        for (Mutation cut : StateMutations.truncations(state)) {
            assertTrue(!cut.state().isEmpty() && cut.state().length() < state.length() && state.startsWith(cut.state()), cut.label());
        }
    }

    @Property
    void everyReEncodingDiffersButHasTheSameBytes(@ForAll("tokens") Token token) {
        for (Mutation spelled : StateMutations.reEncodings(token.text())) {
            assertNotEquals(token.text(), spelled.state());
            List<Segment> segments = StateMutations.segments(spelled.state());
            assertEquals(token.segments().size(), segments.size(), spelled.label());
            for (int i = 0; i < segments.size(); i++) {
                assertArrayEquals(token.segments().get(i), StateMutations.canonicalBase64(segments.get(i).text()), spelled.label());
            }
        }
    }

    /** Every segment has at least one other spelling (padding or alphabet), unless its length needs no padding and it uses no symbol. */
    @Property
    void aBase64TokenAlwaysHasSomeOtherSpellingUnlessNoneExists(@ForAll("tokens") Token token) {
        boolean some = false;
        for (int i = 0; i < token.segments().size(); i++) {
            String own = token.spellings().get(i).encode(token.segments().get(i));
            for (Spelling other : Spelling.values()) {
                some |= !other.encode(token.segments().get(i)).equals(own);
            }
        }
        assertEquals(some, !StateMutations.reEncodings(token.text()).isEmpty());
    }

    @Property
    void canonicalBase64ReadsEverySpellingBack(@ForAll byte[] bytes, @ForAll Spelling spelling) {
        String text = spelling.encode(bytes);
        if (!text.isEmpty()) {
            assertArrayEquals(bytes, StateMutations.canonicalBase64(text));
        }
    }

    @Property(tries = 50) // a mebibyte per try
    void theOversizedStateIsOneMebibyteAndStartsWithTheState(@ForAll @StringLength(max = 300) String state) {
        Mutation big = StateMutations.oversized(state, StrictCheck.OVERSIZED_BYTES);
        assertTrue(big.state().startsWith(state));
        assertTrue(big.state().length() > state.length());
        assertEquals(StrictCheck.OVERSIZED_BYTES, big.state().getBytes(StandardCharsets.UTF_8).length);
    }
}
