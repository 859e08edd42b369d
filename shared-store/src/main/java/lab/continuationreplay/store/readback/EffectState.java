package lab.continuationreplay.store.readback;

import java.util.Arrays;
import java.util.Optional;

/** What an observation says about the effect. {@code unknown} is never proof of non-application. */
public enum EffectState {
    NOT_APPLIED("not_applied"),
    APPLIED("applied"),
    PARTIAL("partial"),
    UNKNOWN("unknown");

    private final String wire;

    EffectState(String wire) {
        this.wire = wire;
    }

    public String wire() {
        return wire;
    }

    public static Optional<EffectState> fromWire(String wire) {
        return Arrays.stream(values()).filter(s -> s.wire.equals(wire)).findFirst();
    }

    /** States that carry exactly one effect id. */
    public boolean hasEffect() {
        return this == APPLIED || this == PARTIAL;
    }
}
