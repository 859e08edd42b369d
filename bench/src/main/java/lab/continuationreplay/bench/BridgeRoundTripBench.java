package lab.continuationreplay.bench;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import lab.continuationreplay.core.servers.WireSettings;

/**
 * Benchmark 3: the same {@code apply} line through one persistent bridge, and through a fresh {@code java -jar
 * bridge.jar} per call (the seed's one-process-per-call design: start, answer one line, exit), each timed from the
 * request to its answer (per call: from the spawn to the exit).
 */
final class BridgeRoundTripBench {
    private BridgeRoundTripBench() {}

    static BenchResult run(BenchPlan plan, PrintStream progress) throws Exception {
        Path folder = Files.createDirectories(plan.work().resolve("bridge-round-trip"));
        WireSettings settings = WireSettings.matrix(folder.resolve("store.sqlite3"), "alice");
        Path stderr = folder.resolve("bridge.stderr.log");
        int warmup = Math.max(plan.warmupCalls(), 20);
        long[] persistent = new long[plan.bridgeCalls()];
        try (RawBridge bridge = RawBridge.start(plan.home(), settings, stderr)) {
            for (int i = 0; i < warmup + plan.bridgeCalls(); i++) {
                String line = RawBridge.apply(settings, "persistent-" + i, "bench", "alpha");
                long t0 = System.nanoTime();
                bridge.call(line);
                if (i >= warmup) {
                    persistent[i - warmup] = System.nanoTime() - t0;
                }
            }
        }
        LatencyStats kept = LatencyStats.of(persistent, 0);
        progress.printf("bench      bridge round trip: persistent p50 %.3f ms%n", kept.p50Ms());
        long[] spawned = new long[plan.bridgeSpawns()];
        for (int i = 0; i < plan.bridgeSpawns(); i++) {
            String line = RawBridge.apply(settings, "per-call-" + i, "bench", "alpha");
            long t0 = System.nanoTime();
            try (RawBridge once = RawBridge.start(plan.home(), settings, stderr)) {
                once.call(line);
                once.close();
                if (once.exitStatus() != 0) {
                    throw new IllegalStateException("a per-call bridge exited " + once.exitStatus());
                }
            }
            spawned[i] = System.nanoTime() - t0;
        }
        LatencyStats perCall = LatencyStats.of(spawned, 0);
        progress.printf("bench      bridge round trip: one JVM per call p50 %.1f ms%n", perCall.p50Ms());
        ObjectNode figures = JsonNodeFactory.instance.objectNode();
        figures.set("persistent", kept.toJson());
        figures.set("one_jvm_per_call", perCall.toJson());
        List<Goal> goals = List.of(Goal.atLeast("bridge_persistent_speedup",
                "persistent bridge >= 100x faster than one JVM per call at p50",
                "one JVM per call p50", perCall.p50Ms(), "persistent bridge p50", kept.p50Ms(), "ms", 100));
        return new BenchResult("bridge_round_trip", "Bridge round trip",
                "the fixture's apply line (distinct operation ids, durable commit) through one warm bridge, "
                        + plan.bridgeCalls() + " calls after " + warmup + " warm-up; and through `java -jar bridge.jar`"
                        + " started per call, " + plan.bridgeSpawns() + " calls, each timed from spawn to exit",
                figures, goals, List.of());
    }
}
