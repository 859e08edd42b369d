package lab.continuationreplay.bench;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * One goal of the issue as a ratio: {@code figure / baseline} compared with a bound, or, for an interleaved
 * measurement, the median of its rounds' ratios (with their spread). Both sides are named and carry their unit, so a
 * reader can recompute the ratio from the report.
 */
public record Goal(String id, String statement, String figureName, double figure, String baselineName, double baseline,
        String unit, Comparison comparison, double bound, List<Double> rounds, Floor floor) {

    /**
     * The ratio the least work this goal's figure must include reaches, measured in the same run (for example: the
     * runtime's own serializer and hashing, with no checks). When the floor is already beyond the bound, no faster
     * implementation on this runtime can meet the goal; the report says so instead of leaving a bare "no".
     *
     * @param what the work the floor times, in words
     * @param ratio that work / the goal's baseline
     */
    public record Floor(String what, double ratio) {
        public Floor {
            java.util.Objects.requireNonNull(what, "what");
            if (Double.isNaN(ratio) || Double.isInfinite(ratio) || ratio <= 0) {
                throw new IllegalArgumentException("floor of " + what + ": ratio " + ratio);
            }
        }
    }

    /** Rounds whose ratios spread wider than this around their median are marked unstable in the report. */
    public static final double UNSTABLE_SPREAD = 0.20;

    public enum Comparison {
        AT_MOST("<="), AT_LEAST(">="), EQUAL("==");

        private final String symbol;

        Comparison(String symbol) {
            this.symbol = symbol;
        }

        public String symbol() {
            return symbol;
        }
    }

    public Goal {
        rounds = List.copyOf(rounds);
        if (baseline == 0 || Double.isNaN(baseline) || Double.isNaN(figure)) {
            throw new IllegalArgumentException(id + ": figure " + figure + " and baseline " + baseline + " give no ratio");
        }
    }

    public static Goal atMost(String id, String statement, String figureName, double figure, String baselineName,
            double baseline, String unit, double bound) {
        return new Goal(id, statement, figureName, figure, baselineName, baseline, unit, Comparison.AT_MOST, bound, List.of(), null);
    }

    public static Goal atLeast(String id, String statement, String figureName, double figure, String baselineName,
            double baseline, String unit, double bound) {
        return new Goal(id, statement, figureName, figure, baselineName, baseline, unit, Comparison.AT_LEAST, bound, List.of(), null);
    }

    public static Goal equal(String id, String statement, String figureName, double figure, String baselineName,
            double baseline, String unit, double bound) {
        return new Goal(id, statement, figureName, figure, baselineName, baseline, unit, Comparison.EQUAL, bound, List.of(), null);
    }

    /**
     * The same goal judged by the ratio of each round of an interleaved measurement (figure and baseline timed
     * alternately, so a drift of the machine lands in both): its ratio becomes the median round's.
     */
    public Goal withRounds(List<Double> ratios) {
        if (ratios.isEmpty() || ratios.stream().anyMatch(r -> r.isNaN() || r.isInfinite())) {
            throw new IllegalArgumentException(id + ": rounds " + ratios + " give no ratio");
        }
        return new Goal(id, statement, figureName, figure, baselineName, baseline, unit, comparison, bound, ratios, floor);
    }

    /** The same goal with its floor (see {@link Floor}). */
    public Goal withFloor(String what, double floorRatio) {
        return new Goal(id, statement, figureName, figure, baselineName, baseline, unit, comparison, bound, rounds,
                new Floor(what, floorRatio));
    }

    /**
     * Whether the floor alone already misses the bound: then the goal is out of reach on this runtime, whatever the
     * implementation does. An equality goal has no floor in this sense.
     */
    public boolean outOfReach() {
        if (floor == null) {
            return false;
        }
        return switch (comparison) {
            case AT_MOST -> floor.ratio() > bound;
            case AT_LEAST -> floor.ratio() < bound;
            case EQUAL -> false;
        };
    }

    /**
     * The unrounded ratio: the median of the rounds' ratios when there are rounds, else figure / baseline. The report
     * rounds figure, baseline and ratio to four significant digits each.
     */
    public double ratio() {
        return rounds.isEmpty() ? figure / baseline : median(rounds);
    }

    /** The middle value, or the mean of the two middle values of an even count. */
    static double median(List<Double> values) {
        double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        int middle = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }

    /** (largest round − smallest round) / median; 0 without rounds. */
    public double spread() {
        return spreadOf(rounds);
    }

    /** (largest − smallest) / median of {@code rounds}; 0 for fewer than two. */
    static double spreadOf(List<Double> rounds) {
        if (rounds.size() < 2) {
            return 0;
        }
        double max = rounds.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
        double min = rounds.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
        return (max - min) / median(rounds);
    }

    public boolean unstable() {
        return spread() > UNSTABLE_SPREAD;
    }

    public boolean met() {
        double ratio = ratio();
        return switch (comparison) {
            case AT_MOST -> ratio <= bound;
            case AT_LEAST -> ratio >= bound;
            case EQUAL -> ratio == bound;
        };
    }

    public ObjectNode toJson() {
        ObjectNode json = JsonNodeFactory.instance.objectNode();
        json.put("id", id);
        json.put("goal", statement);
        json.put("figure_name", figureName);
        json.put("figure", Round.of(figure));
        json.put("baseline_name", baselineName);
        json.put("baseline", Round.of(baseline));
        json.put("unit", unit);
        json.put("ratio", Round.of(ratio()));
        json.put("comparison", comparison.symbol());
        json.put("bound", bound);
        json.put("met", met());
        if (!rounds.isEmpty()) {
            var array = json.putArray("rounds");
            rounds.forEach(r -> array.add(Round.of(r)));
            json.put("spread", Round.of(spread()));
            json.put("unstable", unstable());
        }
        if (floor != null) {
            ObjectNode f = json.putObject("floor");
            f.put("what", floor.what());
            f.put("ratio", Round.of(floor.ratio()));
            f.put("out_of_reach", outOfReach());
        }
        return json;
    }
}
