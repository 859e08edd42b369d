package lab.continuationreplay.server.conformance;

import java.util.Map;
import java.util.regex.Pattern;

/**
 * The conformance profile's own setting: how long a fixture's sealed {@code requestState} lives. The fixtures run on
 * the real clock, not the guarded tools' injected one ({@code WIRE_CLOCK_EPOCH}), because a checker that waits for a
 * state to expire can only wait in real time.
 *
 * @param stateTtlSeconds seconds from sealing until a fixture state no longer opens
 */
public record ConformanceProfile(long stateTtlSeconds) {
    public static final String SWITCH = "--conformance";
    public static final String STATE_TTL = "WIRE_CONFORMANCE_STATE_TTL";
    /** The one principal of the profile when it serves without bearer tokens. */
    public static final String PRINCIPAL = "conformance";
    public static final long DEFAULT_STATE_TTL_SECONDS = 60;
    /** Up to 9 digits: at most about 31 years, far from any overflow of {@code now + ttl}. */
    private static final Pattern POSITIVE_INTEGER = Pattern.compile("[0-9]{1,9}");

    public ConformanceProfile {
        if (stateTtlSeconds <= 0) {
            throw new IllegalArgumentException(STATE_TTL + " must be a positive integer (seconds)");
        }
    }

    /** Throws {@link IllegalArgumentException} naming the variable; the value is not secret but is not echoed either. */
    public static ConformanceProfile fromEnvironment(Map<String, String> environment) {
        String text = environment.get(STATE_TTL);
        if (text == null) {
            return new ConformanceProfile(DEFAULT_STATE_TTL_SECONDS);
        }
        if (!POSITIVE_INTEGER.matcher(text).matches() || Long.parseLong(text) == 0) {
            throw new IllegalArgumentException(STATE_TTL + " must be a positive integer (seconds)");
        }
        return new ConformanceProfile(Long.parseLong(text));
    }
}
