package lab.continuationreplay.bridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * A one-off measurement, not a timed assertion: the cost of one {@code status} round trip through one long-lived
 * bridge versus starting {@code java -jar bridge.jar} for every call (the seed's process-per-call design). Run with
 * {@code mvn -pl bridge verify -Dit.test=BridgeRoundTripMeasurementIT -Dbridge.measure=true}.
 */
@EnabledIfSystemProperty(named = "bridge.measure", matches = "true")
class BridgeRoundTripMeasurementIT {
    private static final int PERSISTENT_CALLS = 1000;
    private static final int PER_PROCESS_CALLS = 40;

    @TempDir
    Path dir;

    @Test
    void persistentBridgeVersusProcessPerCall() throws Exception {
        Map<String, String> env = BridgeProcess.environment(dir.resolve("store.sqlite3"));
        try (BridgeProcess seed = BridgeProcess.start(env)) {
            seed.call(Requests.apply("measured", "t", "atomic", "b"));
        }

        List<Long> persistent = new ArrayList<>();
        try (BridgeProcess bridge = BridgeProcess.start(env)) {
            for (int i = 0; i < 50; i++) { // warm-up, not measured
                bridge.call(Requests.status("measured"));
            }
            for (int i = 0; i < PERSISTENT_CALLS; i++) {
                long start = System.nanoTime();
                String reply = bridge.call(Requests.status("measured"));
                persistent.add(System.nanoTime() - start);
                assertNotNull(reply);
            }
        }

        List<Long> perProcess = new ArrayList<>();
        for (int i = 0; i < PER_PROCESS_CALLS; i++) {
            long start = System.nanoTime();
            try (BridgeProcess bridge = BridgeProcess.start(env)) {
                assertNotNull(bridge.call(Requests.status("measured")));
                bridge.closeInput();
                assertEquals(0, bridge.awaitExit());
            }
            perProcess.add(System.nanoTime() - start);
        }
        System.out.println(summary("persistent bridge, status round trip", persistent));
        System.out.println(summary("java -jar bridge.jar per call (start, status, exit)", perProcess));
    }

    private static String summary(String what, List<Long> nanos) {
        List<Long> sorted = new ArrayList<>(nanos);
        Collections.sort(sorted);
        return String.format(Locale.ROOT, "%s: n=%d median=%.3f ms p99=%.3f ms min=%.3f ms max=%.3f ms", what, sorted.size(),
                percentile(sorted, 50), percentile(sorted, 99), sorted.get(0) / 1e6, sorted.get(sorted.size() - 1) / 1e6);
    }

    /** Nearest-rank percentile, in milliseconds. */
    private static double percentile(List<Long> sorted, int p) {
        int rank = (int) Math.ceil(p / 100.0 * sorted.size());
        return sorted.get(Math.max(0, rank - 1)) / 1e6;
    }
}
