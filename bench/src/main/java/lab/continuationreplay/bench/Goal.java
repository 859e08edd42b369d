package lab.continuationreplay.bench;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * One goal of the issue as a ratio: {@code figure / baseline} compared with a bound. Both sides are named and carry
 * their unit, so a reader can recompute the ratio from the report.
 */
public record Goal(String id, String statement, String figureName, double figure, String baselineName, double baseline,
        String unit, Comparison comparison, double bound) {

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
        if (baseline == 0 || Double.isNaN(baseline) || Double.isNaN(figure)) {
            throw new IllegalArgumentException(id + ": figure " + figure + " and baseline " + baseline + " give no ratio");
        }
    }

    public static Goal atMost(String id, String statement, String figureName, double figure, String baselineName,
            double baseline, String unit, double bound) {
        return new Goal(id, statement, figureName, figure, baselineName, baseline, unit, Comparison.AT_MOST, bound);
    }

    public static Goal atLeast(String id, String statement, String figureName, double figure, String baselineName,
            double baseline, String unit, double bound) {
        return new Goal(id, statement, figureName, figure, baselineName, baseline, unit, Comparison.AT_LEAST, bound);
    }

    public static Goal equal(String id, String statement, String figureName, double figure, String baselineName,
            double baseline, String unit, double bound) {
        return new Goal(id, statement, figureName, figure, baselineName, baseline, unit, Comparison.EQUAL, bound);
    }

    /** The unrounded ratio; the report rounds figure, baseline and ratio to four significant digits each. */
    public double ratio() {
        return figure / baseline;
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
        return json;
    }
}
