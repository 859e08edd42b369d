package lab.continuationreplay.bench;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Arrays;

/**
 * Latencies of a series of timed calls: nearest-rank percentiles (p = 0.5 is the ceil(n/2)-th smallest sample) and
 * calls per second over the series' own wall time (the sum of the samples when that is not given).
 */
public record LatencyStats(int calls, double p50Ms, double p99Ms, double meanMs, double maxMs, double callsPerSecond) {

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
        return new LatencyStats(sorted.length, ms(percentile(sorted, 0.50)), ms(percentile(sorted, 0.99)),
                sum / sorted.length / 1e6, ms(sorted[sorted.length - 1]), sorted.length / (wall / 1e9));
    }

    /** Nearest rank on sorted samples: the smallest sample with at least {@code p} of all samples at or below it. */
    public static long percentile(long[] sorted, double p) {
        if (sorted.length == 0 || p <= 0 || p > 1) {
            throw new IllegalArgumentException("percentile " + p + " of " + sorted.length + " samples");
        }
        int rank = (int) Math.ceil(p * sorted.length);
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
        return json;
    }

    private static double ms(long nanos) {
        return nanos / 1e6;
    }
}
