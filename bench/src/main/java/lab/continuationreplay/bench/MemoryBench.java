package lab.continuationreplay.bench;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Benchmark 6: peak RSS ({@code VmHWM}) of each server and bridge of benchmark 1, sampled after its timed calls, and
 * of each official SDK client's driver playing a client case ({@link ClientRss}).
 */
final class MemoryBench {
    static final double BUDGET_MIB = 160;
    /** Each measured role and how its goal names it, in the order of the goals. */
    private static final Map<String, String> GOALS = goals();

    private static Map<String, String> goals() {
        Map<String, String> goals = new java.util.LinkedHashMap<>();
        goals.put("java_server", "Java guarded server");
        goals.put("typescript_fixture_node", "TS fixture (node)");
        goals.put("typescript_fixture_bridge", "bridge (the fixture's child)");
        goals.put("python_fixture", "Python fixture");
        goals.put("python_fixture_bridge", "bridge (the Python fixture's child)");
        goals.put("go_fixture", "Go fixture");
        goals.put("go_fixture_bridge", "bridge (the Go fixture's child)");
        goals.put("rust_fixture", "Rust fixture");
        goals.put("rust_fixture_bridge", "bridge (the Rust fixture's child)");
        goals.put("java_client_driver", "Java SDK client (driver JVM)");
        goals.put("typescript_client_driver", "TS SDK client (driver, node)");
        goals.put("python_client_driver", "Python SDK client (driver)");
        goals.put("go_client_driver", "Go SDK client (driver)");
        goals.put("rust_client_driver", "Rust SDK client (driver)");
        return java.util.Collections.unmodifiableMap(goals);
    }

    private MemoryBench() {}

    static BenchResult of(Map<String, Double> peakRssMib) {
        ObjectNode figures = JsonNodeFactory.instance.objectNode();
        peakRssMib.forEach((role, mib) -> figures.put(role + "_mib", Round.of(mib)));
        List<Goal> goals = new ArrayList<>();
        for (String role : GOALS.keySet()) {
            Double mib = peakRssMib.get(role);
            if (mib == null) {
                throw new IllegalStateException("no peak RSS sample for " + role);
            }
            goals.add(Goal.atMost("memory_" + role, GOALS.get(role) + " peak RSS <= 160 MiB", GOALS.get(role) + " VmHWM", mib,
                    "budget", BUDGET_MIB, "MiB", 1.0));
        }
        return new BenchResult("memory", "Peak RSS during benchmark 1",
                "VmHWM from /proc/<pid>/status: each server and bridge at the end of its timed calls in benchmark 1 (the"
                        + " lab's JVM options for them: serial collector, 64 MiB heap), each SDK client's driver sampled every"
                        + " 10 ms while it plays the first client case against the Java server (its JVM with default settings)",
                figures, goals, List.of());
    }
}
