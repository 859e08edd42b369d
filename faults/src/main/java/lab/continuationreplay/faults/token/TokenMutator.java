package lab.continuationreplay.faults.token;

import java.util.Base64;
import java.util.Random;

/**
 * Seeded, pure mutations of a {@code requestState} token string. Every method returns a token that differs from its
 * input; the same seed gives the same mutations. Tokens are {@code v1.} followed by one (Java) or two (TypeScript, Go)
 * base64url segments separated by dots, or the Rust SDK's {@code rs1.} followed by two.
 */
public final class TokenMutator {
    private static final String ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    private static final java.util.List<String> PREFIXES = java.util.List.of("v1.", "rs1.");

    private final Random random;

    public TokenMutator(Random random) {
        this.random = random;
    }

    /** Decodes one segment, flips one to three bits, encodes canonically again. */
    public String bitFlip(String token) {
        String[] segments = segments(token);
        int which = random.nextInt(segments.length);
        byte[] raw = Base64.getUrlDecoder().decode(segments[which]);
        if (raw.length == 0) {
            return token + "A";
        }
        int flips = 1 + random.nextInt(3);
        for (int i = 0; i < flips; i++) {
            int bit = random.nextInt(raw.length * 8);
            raw[bit / 8] ^= (byte) (1 << (bit % 8));
        }
        segments[which] = Base64.getUrlEncoder().withoutPadding().encodeToString(raw);
        String mutated = join(prefix(token), segments);
        return mutated.equals(token) ? bitFlip(token) : mutated;
    }

    /** Replaces, inserts or deletes one to three characters anywhere in the token (prefix and dots included). */
    public String byteMutation(String token) {
        StringBuilder text = new StringBuilder(token);
        int edits = 1 + random.nextInt(3);
        for (int i = 0; i < edits; i++) {
            int at = random.nextInt(text.length());
            switch (random.nextInt(3)) {
                case 0 -> text.setCharAt(at, randomChar());
                case 1 -> text.insert(at, randomChar());
                default -> {
                    if (text.length() > 1) {
                        text.deleteCharAt(at);
                    }
                }
            }
        }
        String mutated = text.toString();
        return mutated.equals(token) ? byteMutation(token) : mutated;
    }

    /** A proper prefix of the token, from empty to one character short. */
    public String truncation(String token) {
        return token.substring(0, random.nextInt(token.length()));
    }

    /** The token with one to 64 characters appended: base64url text, a further segment, or raw bytes sealed in. */
    public String extension(String token) {
        return switch (random.nextInt(3)) {
            case 0 -> token + randomText(1 + random.nextInt(64));
            case 1 -> token + "." + randomText(1 + random.nextInt(43));
            default -> {
                String[] segments = segments(token);
                byte[] raw = Base64.getUrlDecoder().decode(segments[segments.length - 1]);
                byte[] longer = java.util.Arrays.copyOf(raw, raw.length + 1 + random.nextInt(16));
                for (int i = raw.length; i < longer.length; i++) {
                    longer[i] = (byte) random.nextInt(256);
                }
                segments[segments.length - 1] = Base64.getUrlEncoder().withoutPadding().encodeToString(longer);
                yield join(prefix(token), segments);
            }
        };
    }

    /**
     * The same bytes spelt another way: padding, the standard alphabet, whitespace, a non-canonical last character
     * (same bytes, other trailing bits), another case of the prefix, a URL-encoded or quoted form.
     */
    public String reEncoding(String token) {
        String[] segments = segments(token);
        int which = random.nextInt(segments.length);
        String segment = segments[which];
        String mutated = switch (random.nextInt(8)) {
            case 0 -> {
                segments[which] = segment + (segment.length() % 4 == 2 ? "==" : "=");
                yield join(prefix(token), segments);
            }
            case 1 -> {
                segments[which] = segment.replace('-', '+').replace('_', '/');
                yield join(prefix(token), segments);
            }
            case 2 -> {
                int at = 1 + random.nextInt(Math.max(1, segment.length() - 1));
                segments[which] = segment.substring(0, Math.min(at, segment.length())) + " \t\n".charAt(random.nextInt(3))
                        + segment.substring(Math.min(at, segment.length()));
                yield join(prefix(token), segments);
            }
            case 3 -> {
                segments[which] = nonCanonicalTail(segment);
                yield join(prefix(token), segments);
            }
            case 4 -> prefix(token).toUpperCase(java.util.Locale.ROOT) + token.substring(prefix(token).length());
            case 5 -> token.replace(".", "%2E");
            case 6 -> "\"" + token + "\"";
            default -> (random.nextBoolean() ? " " : "") + token + (random.nextBoolean() ? "\n" : " ");
        };
        return mutated.equals(token) ? segments(token).length + "" + token : mutated;
    }

    /** The same decoded bytes with different unused low bits in the last character (base64url is not unique there). */
    static String nonCanonicalTail(String segment) {
        int spareBits = switch (segment.length() % 4) {
            case 2 -> 4;
            case 3 -> 2;
            default -> 0;
        };
        if (spareBits == 0) {
            return segment + "=";
        }
        int last = ALPHABET.indexOf(segment.charAt(segment.length() - 1));
        int changed = last ^ 1; // the lowest bit is always a spare one here
        return segment.substring(0, segment.length() - 1) + ALPHABET.charAt(changed);
    }

    /** The token's format prefix, {@code v1.} or {@code rs1.}. */
    static String prefix(String token) {
        return PREFIXES.stream().filter(token::startsWith).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("not a v1 or rs1 token"));
    }

    public static String[] segments(String token) {
        return token.substring(prefix(token).length()).split("\\.", -1);
    }

    private static String join(String prefix, String[] segments) {
        return prefix + String.join(".", segments);
    }

    private char randomChar() {
        return random.nextInt(8) == 0 ? (char) (0x21 + random.nextInt(0x5e)) : ALPHABET.charAt(random.nextInt(ALPHABET.length()));
    }

    private String randomText(int length) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < length; i++) {
            text.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
        }
        return text.toString();
    }
}
