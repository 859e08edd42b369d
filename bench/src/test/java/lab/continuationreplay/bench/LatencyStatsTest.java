package lab.continuationreplay.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class LatencyStatsTest {
    @Test
    void percentilesAreNearestRank() {
        long[] sorted = new long[100];
        for (int i = 0; i < 100; i++) {
            sorted[i] = i + 1;
        }
        assertEquals(50, LatencyStats.percentile(sorted, 0.50));
        assertEquals(99, LatencyStats.percentile(sorted, 0.99));
        assertEquals(100, LatencyStats.percentile(sorted, 1.0));
        assertEquals(1, LatencyStats.percentile(new long[] {1, 2}, 0.5));
        assertEquals(7, LatencyStats.percentile(new long[] {7}, 0.99));
        assertThrows(IllegalArgumentException.class, () -> LatencyStats.percentile(new long[0], 0.5));
        assertThrows(IllegalArgumentException.class, () -> LatencyStats.percentile(sorted, 0));
        for (int level = 1; level <= 100; level++) {
            assertEquals(level, LatencyStats.percentile(sorted, level / 100.0), "nearest rank of " + level + " %");
        }
    }

    @Test
    void theCdfIsThePercentileAtEachLevel() {
        long[] nanos = new long[200];
        for (int i = 0; i < nanos.length; i++) {
            nanos[i] = (nanos.length - i) * 1_000_000L;
        }
        LatencyStats stats = LatencyStats.of(nanos, 0);
        assertEquals(LatencyStats.CDF_LEVELS.size(), stats.cdfMs().size());
        assertEquals(10.0, stats.cdfMs().get(0), "5 % of 200 is the 10th smallest");
        assertEquals(30.0, stats.cdfMs().get(2), "15 % of 200 is the 30th smallest");
        assertEquals(stats.p50Ms(), stats.cdfMs().get(LatencyStats.CDF_LEVELS.indexOf(0.50)));
        assertEquals(stats.p99Ms(), stats.cdfMs().get(LatencyStats.CDF_LEVELS.indexOf(0.99)));
        assertEquals(stats.maxMs(), stats.cdfMs().get(LatencyStats.CDF_LEVELS.size() - 1));
        var json = stats.toJson();
        assertEquals(LatencyStats.CDF_LEVELS.size(), json.get("cdf_ms").size());
        List<String> keys = new java.util.ArrayList<>();
        json.fieldNames().forEachRemaining(keys::add);
        assertEquals(List.of("calls", "p50_ms", "p99_ms", "mean_ms", "max_ms", "calls_per_s", "cdf_ms"), keys,
                "the former keys stay, the distribution follows");
    }

    @Test
    void statsSortTheirOwnCopyAndCountCallsPerSecond() {
        long[] nanos = {3_000_000, 1_000_000, 2_000_000, 4_000_000};
        LatencyStats stats = LatencyStats.of(nanos, 0);
        assertEquals(3_000_000, nanos[0], "the caller's samples stay in order");
        assertEquals(2.0, stats.p50Ms());
        assertEquals(4.0, stats.p99Ms());
        assertEquals(2.5, stats.meanMs());
        assertEquals(4.0, stats.maxMs());
        assertEquals(400.0, stats.callsPerSecond(), 1e-9, "4 calls in 10 ms of summed latency");
        assertEquals(4.0, LatencyStats.of(nanos, 1_000_000_000L).callsPerSecond(), 1e-9, "4 calls in a 1 s wall");
        assertThrows(IllegalArgumentException.class, () -> LatencyStats.of(new long[0], 0));
    }

    @Test
    void jsonKeepsFourSignificantDigits() {
        LatencyStats stats = LatencyStats.of(new long[] {1_234_567}, 0);
        assertEquals(1.235, stats.toJson().get("p50_ms").doubleValue());
        assertEquals(1, stats.toJson().get("calls").intValue());
    }
}
