package lab.continuationreplay.conformance.strict;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Changed copies of a {@code requestState}, made without knowing how the server builds it. The checker only sees an
 * opaque string, so it guesses the structure a token usually has (segments split by punctuation, each segment
 * base64 or base64url) and changes it in ways a server that checks its state must notice. Pure functions: the
 * properties in the tests hold for any input string.
 */
public final class StateMutations {
    /** Characters that split a token into segments; none of them is in either base64 alphabet. */
    static final String SEPARATORS = ".:~|,;$!";
    /** Positions flipped per segment: its first, middle and last character. */
    private static final int POSITIONS = 3;
    /** So a state with very many segments does not turn into hundreds of requests: the first and last ones. */
    private static final int MAX_SEGMENTS_FLIPPED = 32;

    private static final String STANDARD = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    private static final String URL_SAFE = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

    private StateMutations() {}

    /** One changed state and what was done to it, in words a report can show. */
    public record Mutation(String label, String state) {}

    /** A maximal run of non-separator characters, by its place in the state. */
    record Segment(int index, int start, String text) {
        int end() {
            return start + text.length();
        }
    }

    /** The base64 spellings a segment can be re-encoded into. */
    enum Spelling {
        STANDARD_PADDED("standard alphabet, padded", false, true),
        STANDARD_UNPADDED("standard alphabet, unpadded", false, false),
        URL_PADDED("URL-safe alphabet, padded", true, true),
        URL_UNPADDED("URL-safe alphabet, unpadded", true, false);

        final String words;
        final boolean urlSafe;
        final boolean padded;

        Spelling(String words, boolean urlSafe, boolean padded) {
            this.words = words;
            this.urlSafe = urlSafe;
            this.padded = padded;
        }

        String encode(byte[] bytes) {
            Base64.Encoder encoder = urlSafe ? Base64.getUrlEncoder() : Base64.getEncoder();
            return (padded ? encoder : encoder.withoutPadding()).encodeToString(bytes);
        }
    }

    /** The non-empty segments of {@code state}, split on {@link #SEPARATORS}; a state without one is one segment. */
    static List<Segment> segments(String state) {
        List<Segment> segments = new ArrayList<>();
        int start = 0;
        for (int i = 0; i <= state.length(); i++) {
            if (i == state.length() || SEPARATORS.indexOf(state.charAt(i)) >= 0) {
                if (i > start) {
                    segments.add(new Segment(segments.size(), start, state.substring(start, i)));
                }
                start = i + 1;
            }
        }
        return segments;
    }

    /**
     * One bit flipped at a time, at the first, middle and last character of every segment (padding excluded). A
     * base64 character is flipped in its 6-bit value, in the two high bits: those always carry data, even in a last
     * character whose low bits are spare, so the decoded bytes change and a lenient decoder cannot read the flipped
     * token as the original. Any other character has bit 0 of its code flipped.
     */
    public static List<Mutation> bitFlips(String state) {
        List<Segment> segments = segments(state);
        List<Segment> chosen = segments.size() <= MAX_SEGMENTS_FLIPPED ? segments
                : concat(segments.subList(0, MAX_SEGMENTS_FLIPPED / 2),
                        segments.subList(segments.size() - MAX_SEGMENTS_FLIPPED / 2, segments.size()));
        Map<String, Mutation> unique = new LinkedHashMap<>();
        for (Segment segment : chosen) {
            String alphabet = alphabetOf(segment.text());
            for (int position : positions(segment.text())) {
                char original = segment.text().charAt(position);
                int value = valueIn(original);
                int[] bits = value >= 0 ? new int[] {5, 4} : new int[] {0};
                for (int bit : bits) {
                    char flipped = value >= 0 ? alphabet.charAt(value ^ (1 << bit)) : (char) (original ^ 1);
                    StringBuilder changed = new StringBuilder(state);
                    changed.setCharAt(segment.start() + position, flipped);
                    String label = "segment " + (segment.index() + 1) + " of " + segments.size() + ", character "
                            + (position + 1) + ", bit " + bit + (value >= 0 ? " of its base64 value" : " of its code");
                    unique.putIfAbsent(changed.toString(), new Mutation(label, changed.toString()));
                }
            }
        }
        unique.remove(state);
        return List.copyOf(unique.values());
    }

    /**
     * Shorter prefixes: one and four characters less, half, one character, and the state without its last segment.
     * Never the empty string: a server may read that as no state at all, which the missing-state check covers.
     */
    public static List<Mutation> truncations(String state) {
        Map<String, Mutation> unique = new LinkedHashMap<>();
        int n = state.length();
        for (int keep : new int[] {n - 1, n - 4, n / 2, 1}) {
            if (keep > 0 && keep < n) {
                unique.putIfAbsent(state.substring(0, keep),
                        new Mutation("the first " + keep + " of " + n + " characters", state.substring(0, keep)));
            }
        }
        List<Segment> segments = segments(state);
        if (segments.size() > 1) {
            Segment previous = segments.get(segments.size() - 2);
            String cut = state.substring(0, previous.end());
            unique.putIfAbsent(cut, new Mutation("without its last segment", cut));
        }
        unique.remove(state);
        return List.copyOf(unique.values());
    }

    /**
     * The same bytes spelled otherwise: every segment that is canonical base64 (it decodes, and encoding its bytes in
     * its own alphabet and padding gives it back) is re-encoded in the other alphabet and with padding added or
     * removed, one segment at a time, then all of them at once. Only spellings that differ from the state are kept;
     * a segment that is not canonical base64 (say, a version tag like {@code v1}) is left alone, since its "bytes"
     * would be a guess.
     */
    public static List<Mutation> reEncodings(String state) {
        List<Segment> segments = segments(state);
        Map<Integer, byte[]> decoded = new LinkedHashMap<>();
        for (Segment segment : segments) {
            byte[] bytes = canonicalBase64(segment.text());
            if (bytes != null) {
                decoded.put(segment.index(), bytes);
            }
        }
        Map<String, Mutation> unique = new LinkedHashMap<>();
        for (Spelling spelling : Spelling.values()) {
            for (Map.Entry<Integer, byte[]> entry : decoded.entrySet()) {
                String changed = replace(state, segments, Map.of(entry.getKey(), spelling.encode(entry.getValue())));
                unique.putIfAbsent(changed, new Mutation("segment " + (entry.getKey() + 1) + " of " + segments.size()
                        + " as base64, " + spelling.words, changed));
            }
            if (decoded.size() > 1) {
                Map<Integer, String> all = new LinkedHashMap<>();
                decoded.forEach((index, bytes) -> all.put(index, spelling.encode(bytes)));
                String changed = replace(state, segments, all);
                unique.putIfAbsent(changed, new Mutation("every base64 segment, " + spelling.words, changed));
            }
        }
        unique.remove(state);
        return List.copyOf(unique.values());
    }

    /** The state followed by {@code A}s up to {@code bytes} bytes of UTF-8 (at least one more character). */
    public static Mutation oversized(String state, int bytes) {
        int have = state.getBytes(StandardCharsets.UTF_8).length;
        String padded = state + "A".repeat(Math.max(1, bytes - have));
        return new Mutation("the state followed by " + (padded.length() - state.length()) + " more characters, "
                + padded.getBytes(StandardCharsets.UTF_8).length + " bytes in all", padded);
    }

    /**
     * The bytes of {@code text} if it is base64 in exactly its canonical spelling, in either alphabet, padded or not;
     * otherwise null (not base64, both alphabets mixed, spare bits set, or padding a decoder would add differently).
     */
    static byte[] canonicalBase64(String text) {
        boolean standard = text.indexOf('+') >= 0 || text.indexOf('/') >= 0;
        boolean urlSafe = text.indexOf('-') >= 0 || text.indexOf('_') >= 0;
        if (text.isEmpty() || standard && urlSafe) {
            return null;
        }
        boolean padded = text.endsWith("=");
        Spelling own = urlSafe ? (padded ? Spelling.URL_PADDED : Spelling.URL_UNPADDED)
                : padded ? Spelling.STANDARD_PADDED : Spelling.STANDARD_UNPADDED;
        try {
            byte[] bytes = (own.urlSafe ? Base64.getUrlDecoder() : Base64.getDecoder()).decode(text);
            return own.encode(bytes).equals(text) ? bytes : null;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static String replace(String state, List<Segment> segments, Map<Integer, String> replacements) {
        StringBuilder out = new StringBuilder();
        int at = 0;
        for (Segment segment : segments) {
            out.append(state, at, segment.start());
            out.append(replacements.getOrDefault(segment.index(), segment.text()));
            at = segment.end();
        }
        out.append(state.substring(at));
        return out.toString();
    }

    /** The segment's alphabet for flipped characters: URL-safe unless it already uses the standard one's symbols. */
    private static String alphabetOf(String segment) {
        boolean standard = segment.indexOf('+') >= 0 || segment.indexOf('/') >= 0;
        boolean urlSafe = segment.indexOf('-') >= 0 || segment.indexOf('_') >= 0;
        return standard && !urlSafe ? STANDARD : URL_SAFE;
    }

    /** The 6-bit base64 value of {@code c} in either alphabet, or -1. */
    private static int valueIn(char c) {
        int value = URL_SAFE.indexOf(c);
        return value >= 0 ? value : STANDARD.indexOf(c);
    }

    /** First, middle and last character, not counting trailing padding. */
    private static List<Integer> positions(String segment) {
        int length = segment.length();
        while (length > 1 && segment.charAt(length - 1) == '=') {
            length--;
        }
        List<Integer> positions = new ArrayList<>();
        for (int p : new int[] {0, length / 2, length - 1}) {
            if (!positions.contains(p) && positions.size() < POSITIONS) {
                positions.add(p);
            }
        }
        return positions;
    }

    private static <T> List<T> concat(List<T> a, List<T> b) {
        List<T> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }
}
