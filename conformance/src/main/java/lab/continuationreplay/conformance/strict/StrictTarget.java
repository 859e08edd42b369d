package lab.continuationreplay.conformance.strict;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The server the strict checks run against: its URL (any http or https URL: it is the user's own server), the
 * bearer tokens of up to two principals, and how long the server keeps a {@code requestState} valid, when known.
 * {@link #toString()} never shows a token.
 */
public record StrictTarget(URI url, Optional<String> bearer, Optional<String> otherBearer, Optional<Duration> stateTtl) {
    /** RFC 6750's b64token: anything else could not be sent in a header as given (a line break would inject one). */
    private static final Pattern B64TOKEN = Pattern.compile("[A-Za-z0-9._~+/-]+=*");
    /** Longest lifetime the checker waits out: its loops are bounded in time. */
    public static final Duration MAX_STATE_TTL = Duration.ofDays(1);

    public StrictTarget {
        if (url == null || url.getHost() == null || !("http".equals(url.getScheme()) || "https".equals(url.getScheme()))) {
            throw new IllegalArgumentException("--url must be an http or https URL with a host, not " + (url == null ? "nothing" : url));
        }
        if (url.getRawUserInfo() != null) {
            // A password in the URL would end up in strict.json; bearer tokens have their own options.
            throw new IllegalArgumentException("--url must not carry credentials (user:password@); use --bearer");
        }
        bearer = checkedToken(bearer, "--bearer");
        otherBearer = checkedToken(otherBearer, "--other-bearer");
        if (otherBearer.isPresent() && bearer.isEmpty()) {
            throw new IllegalArgumentException("--other-bearer names a second principal; give the first one's --bearer too");
        }
        if (otherBearer.isPresent() && otherBearer.equals(bearer)) {
            throw new IllegalArgumentException("--other-bearer must be another principal's token, not the --bearer token again");
        }
        stateTtl = stateTtl == null ? Optional.empty() : stateTtl;
        if (stateTtl.isPresent() && (stateTtl.get().isNegative() || stateTtl.get().isZero()
                || stateTtl.get().compareTo(MAX_STATE_TTL) > 0)) {
            throw new IllegalArgumentException("--state-ttl must be between 1 second and " + MAX_STATE_TTL.toSeconds() + " seconds");
        }
    }

    /**
     * The target as the CLI's options give it; null for an option not given.
     *
     * @throws IllegalArgumentException with a one-line message that names the option and never a token
     */
    public static StrictTarget of(String url, String bearer, String otherBearer, Long stateTtlSeconds) {
        if (url == null || url.isBlank()) {
            throw new IllegalArgumentException("--url is required");
        }
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("--url is not a URL: " + e.getMessage());
        }
        if (stateTtlSeconds != null && (stateTtlSeconds < 1 || stateTtlSeconds > MAX_STATE_TTL.toSeconds())) {
            throw new IllegalArgumentException("--state-ttl must be between 1 second and " + MAX_STATE_TTL.toSeconds() + " seconds");
        }
        return new StrictTarget(uri, Optional.ofNullable(bearer), Optional.ofNullable(otherBearer),
                Optional.ofNullable(stateTtlSeconds).map(Duration::ofSeconds));
    }

    /** Whether both principals' tokens were given, so a state can be carried from one to the other. */
    public boolean hasTwoPrincipals() {
        return bearer.isPresent() && otherBearer.isPresent();
    }

    /** Replaces every token this target holds by a name, in any text that is to be shown or written. */
    public String redact(String text) {
        if (text == null) {
            return null;
        }
        String out = text;
        if (bearer.isPresent()) {
            out = out.replace(bearer.get(), "[bearer token]");
        }
        if (otherBearer.isPresent()) {
            out = out.replace(otherBearer.get(), "[other bearer token]");
        }
        return out;
    }

    @Override
    public String toString() {
        return "StrictTarget[url=" + url + ", bearer=" + (bearer.isPresent() ? "given" : "none") + ", otherBearer="
                + (otherBearer.isPresent() ? "given" : "none") + ", stateTtl=" + stateTtl.map(Duration::toString).orElse("unknown") + "]";
    }

    private static Optional<String> checkedToken(Optional<String> token, String option) {
        if (token == null || token.isEmpty()) {
            return Optional.empty();
        }
        if (!B64TOKEN.matcher(token.get()).matches()) {
            // The message never repeats the value: it may be a real token with a typo.
            throw new IllegalArgumentException(option + " must be a bearer token (RFC 6750 characters only, no spaces or line breaks)");
        }
        return token;
    }
}
