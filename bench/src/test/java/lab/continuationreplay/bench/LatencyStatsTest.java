package lab.continuationreplay.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

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
