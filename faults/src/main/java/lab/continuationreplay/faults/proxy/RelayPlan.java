package lab.continuationreplay.faults.proxy;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.Random;
import lab.continuationreplay.core.wire.ExchangePlan;
import lab.continuationreplay.history.HttpHead;

/**
 * The cutting HTTP proxy's plan: each exchange is forwarded, loses its response, is reset halfway through its
 * response, is delayed, or goes to the server twice, drawn from a seeded source with fixed odds. The relay asks from
 * its connection threads, so drawing is synchronized; with one client at a time the draws follow the exchanges in
 * order and a seed gives the same plan.
 */
public final class RelayPlan implements ExchangePlan {
    /** The kinds of action, for counting. */
    public enum Kind { FORWARD, DROP_RESPONSE, RESET_MID_RESPONSE, DELAY, DUPLICATE }

    /** Odds of each action but forwarding; forwarding takes the rest. */
    public static final Map<Kind, Double> ODDS = Map.of(Kind.DROP_RESPONSE, 0.12, Kind.RESET_MID_RESPONSE, 0.10, Kind.DELAY, 0.08,
            Kind.DUPLICATE, 0.10);
    private static final Kind[] ORDER = {Kind.DROP_RESPONSE, Kind.RESET_MID_RESPONSE, Kind.DELAY, Kind.DUPLICATE};

    private final Random random;
    private final Map<Kind, Integer> counts = new EnumMap<>(Kind.class);

    public RelayPlan(Random random) {
        this.random = random;
        for (Kind kind : Kind.values()) {
            counts.put(kind, 0);
        }
    }

    @Override
    public synchronized Action decide(int exchange, HttpHead request, byte[] body) {
        Kind kind = draw();
        counts.merge(kind, 1, Integer::sum);
        return switch (kind) {
            case FORWARD -> FORWARD;
            case DROP_RESPONSE -> new DropResponse();
            case RESET_MID_RESPONSE -> new ResetMidResponse();
            case DELAY -> new Delay(Duration.ofMillis(50 + random.nextInt(251)));
            case DUPLICATE -> new Duplicate();
        };
    }

    /** The next kind from the seeded source (pure apart from the source: what the unit test checks). */
    Kind draw() {
        double roll = random.nextDouble();
        double upTo = 0;
        for (Kind kind : ORDER) {
            upTo += ODDS.get(kind);
            if (roll < upTo) {
                return kind;
            }
        }
        return Kind.FORWARD;
    }

    public synchronized Map<Kind, Integer> counts() {
        return new EnumMap<>(counts);
    }
}
