package lab.continuationreplay.bench;

import java.math.BigDecimal;
import java.math.MathContext;

/** Figures in the report keep four significant digits: enough for ratios, no false precision. */
final class Round {
    private Round() {}

    static double of(double value) {
        if (value == 0 || Double.isNaN(value) || Double.isInfinite(value)) {
            return value;
        }
        return new BigDecimal(value).round(new MathContext(4)).doubleValue();
    }
}
