package lab.continuationreplay.faults.stall;

import java.util.Arrays;
import java.util.List;

/** Nearest-rank percentiles of latencies in nanoseconds. */
final class Percentiles {
    private Percentiles() {}

    /** The {@code p}-th percentile (0 < p <= 100) by nearest rank; 0 for no samples. */
    static long of(List<Long> samples, double p) {
        if (samples.isEmpty()) {
            return 0;
        }
        long[] sorted = samples.stream().mapToLong(Long::longValue).toArray();
        Arrays.sort(sorted);
        int rank = (int) Math.ceil(p / 100.0 * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }
}
