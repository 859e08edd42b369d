package lab.continuationreplay.server.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Clock;
import lab.continuationreplay.server.state.InvalidRequestState;
import lab.continuationreplay.server.state.SealedRequestState;
import lab.continuationreplay.server.state.StateBinding;
import lab.continuationreplay.vectors.ExactJson;

/**
 * Seals and opens the fixtures' {@code requestState} with the server's own AEAD construction and key
 * ({@link SealedRequestState}), bound to the method, the fixture's name, a digest of the arguments and the principal,
 * on the real clock. A fixture has no effect to protect, but the suite (and the lab's strict checker) probes the
 * server's state handling through them, so they get exactly the protection the guarded tools get.
 */
public final class FixtureStates {
    /**
     * A sealed fixture state is a few hundred characters; anything far longer is refused before any decoding, so a
     * megabyte of state costs the server a length check, not a base64 decode.
     */
    public static final int MAX_STATE_CHARS = 4096;

    private final SealedRequestState sealer;
    private final Clock clock;

    public FixtureStates(SealedRequestState sealer, Clock clock) {
        this.sealer = sealer;
        this.clock = clock;
    }

    String seal(FixtureCall call, JsonNode state) {
        return sealer.seal(state.toString(), binding(call), now());
    }

    JsonNode open(FixtureCall call, Object token) throws InvalidRequestState {
        if (token instanceof String text && text.length() > MAX_STATE_CHARS) {
            throw new InvalidRequestState("oversized (" + text.length() + " characters)");
        }
        String state = sealer.open(token, binding(call), now());
        try {
            return ExactJson.parse(state);
        } catch (IllegalArgumentException e) {
            // Only this server can have sealed it, so this would be a bug here, not a client's doing.
            throw new InvalidRequestState("sealed state is not JSON");
        }
    }

    private StateBinding binding(FixtureCall call) {
        return StateBinding.of(call.method().wire(), call.name(), call.arguments(), call.principal());
    }

    private long now() {
        return clock.instant().getEpochSecond();
    }
}
