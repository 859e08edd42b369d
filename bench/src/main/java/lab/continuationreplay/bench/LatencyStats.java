package lab.continuationreplay.bench;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Arrays;
import java.util.List;

/**
 * Latencies of a series of timed calls: nearest-rank percentiles (p = 0.5 is the ceil(n/2)-th smallest sample) and
 * calls per second over the series' own wall time (the sum of the samples when that is not given). {@code cdfMs} is
 * the distribution in brief, the nearest-rank percentile at each of {@link #CDF_LEVELS}, so a report can draw the
 * curve without the samples.
 */
public record LatencyStats(int calls, double p50Ms, double p99Ms, double meanMs, double maxMs, double callsPerSecond,
        List<Double> cdfMs) {

    /** The levels of {@code cdf_ms}: every 5 % from 5 % to 95 %, then 99 % and 100 % (the tail is where guards cost). */
    public static final List<Double> CDF_LEVELS = List.of(0.05, 0.10, 0.15, 0.20, 0.25, 0.30, 0.35, 0.40, 0.45, 0.50, 0.55,
            0.60, 0.65, 0.70, 0.75, 0.80, 0.85, 0.90, 0.95, 0.99, 1.0);

    public LatencyStats {
        cdfMs = List.copyOf(cdfMs);
    }

    public static LatencyStats of(long[] nanos, long wallNanos) {
        if (nanos.length == 0) {
            throw new IllegalArgumentException("no samples");
        }
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        double sum = 0;
        for (long n : sorted) {
            sum += n;
        }
        double wall = wallNanos > 0 ? wallNanos : sum;
        List<Double> cdf = CDF_LEVELS.stream().map(p -> ms(percentile(sorted, p))).toList();
        return new LatencyStats(sorted.length, ms(percentile(sorted, 0.50)), ms(percentile(sorted, 0.99)),
                sum / sorted.length / 1e6, ms(sorted[sorted.length - 1]), sorted.length / (wall / 1e9), cdf);
    }

    /** Nearest rank on sorted samples: the smallest sample with at least {@code p} of all samples at or below it. */
    public static long percentile(long[] sorted, double p) {
        if (sorted.length == 0 || p <= 0 || p > 1) {
            throw new IllegalArgumentException("percentile " + p + " of " + sorted.length + " samples");
        }
        // In decimal, since p * n in binary misses whole ranks (0.15 * 100 is 15.000000000000002, which would give rank 16).
        int rank = java.math.BigDecimal.valueOf(p).multiply(java.math.BigDecimal.valueOf(sorted.length))
                .setScale(0, java.math.RoundingMode.CEILING).intValueExact();
        return sorted[Math.max(rank, 1) - 1];
    }

    public ObjectNode toJson() {
        ObjectNode json = JsonNodeFactory.instance.objectNode();
        json.put("calls", calls);
        json.put("p50_ms", Round.of(p50Ms));
        json.put("p99_ms", Round.of(p99Ms));
        json.put("mean_ms", Round.of(meanMs));
        json.put("max_ms", Round.of(maxMs));
        json.put("calls_per_s", Round.of(callsPerSecond));
        var cdf = json.putArray("cdf_ms");
        cdfMs.forEach(ms -> cdf.add(Round.of(ms)));
        return json;
    }

    private static double ms(long nanos) {
        return nanos / 1e6;
    }
}
