package lab.continuationreplay.bench;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Benchmark 6: peak RSS ({@code VmHWM}) of each process of benchmark 1, sampled after its timed calls. */
final class MemoryBench {
    static final double BUDGET_MIB = 160;
    private static final Map<String, String> GOALS = Map.of(
            "java_server", "Java guarded server",
            "typescript_fixture_node", "TS fixture (node)",
            "typescript_fixture_bridge", "bridge (the fixture's child)");

    private MemoryBench() {}

    static BenchResult of(Map<String, Double> peakRssMib) {
        ObjectNode figures = JsonNodeFactory.instance.objectNode();
        peakRssMib.forEach((role, mib) -> figures.put(role + "_mib", Round.of(mib)));
        List<Goal> goals = new ArrayList<>();
        for (String role : List.of("java_server", "typescript_fixture_node", "typescript_fixture_bridge")) {
            Double mib = peakRssMib.get(role);
            if (mib == null) {
                throw new IllegalStateException("no peak RSS sample for " + role);
            }
            goals.add(Goal.atMost("memory_" + role, GOALS.get(role) + " peak RSS <= 160 MiB", GOALS.get(role) + " VmHWM", mib,
                    "budget", BUDGET_MIB, "MiB", 1.0));
        }
        return new BenchResult("memory", "Peak RSS during benchmark 1",
                "VmHWM from /proc/<pid>/status of each process at the end of its timed calls in benchmark 1 (the JVMs run"
                        + " with their default heap settings)",
                figures, goals, List.of());
    }
}
