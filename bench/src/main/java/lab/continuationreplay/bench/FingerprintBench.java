package lab.continuationreplay.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import lab.continuationreplay.core.LabHome;
import lab.continuationreplay.core.exec.Exec;
import lab.continuationreplay.core.servers.WireSettings;
import lab.continuationreplay.vectors.ExactJson;
import lab.continuationreplay.vectors.FingerprintKey;
import lab.continuationreplay.vectors.LogicalRequestReader;
import lab.continuationreplay.vectors.RequestFingerprint;

/**
 * Benchmark 4: fingerprints per second for case 01's request and a 64 KiB arguments object, in Java (JMH), TypeScript
 * ({@code ts-fixture/dist/bench/fingerprint-bench.js}), Python ({@code py-fixture/src/fingerprint-bench.py}), Go
 * ({@code go-fixture/target/bin/fingerprint-bench}) and Rust ({@code rust-fixture/target/release/fingerprint-bench}).
 * Each language's fingerprint is set against its runtime's floor
 * (row 4: its own serializer writing the payload from a tree already in canonical order, plus the same HMACs and
 * SHA-256), and Java and TypeScript also against their bare hashing. Every side must produce the same digest.
 */
final class FingerprintBench {
    /** What the TypeScript floor times (see ts-fixture/src/bench/fingerprint-bench.ts). */
    static final String TS_FLOOR = "node's JSON.stringify of the payload already in canonical order, hashed from the string,"
            + " plus the two HMACs: no checks, no ordering";
    /** What the Python floor times (py-fixture/src/fingerprint-bench.py). */
    static final String PYTHON_FLOOR = "json.dumps of the payload already in canonical order, encoded and hashed, plus the two HMACs";
    /** What the Go floor times (go-fixture/cmd/fingerprint-bench). */
    static final String GO_FLOOR = "encoding/json writing the decoded payload (it sorts map keys itself), hashed, plus the two HMACs";
    /** What the Rust floor times (rust-fixture/src/bin/fingerprint-bench.rs). */
    static final String RUST_FLOOR = "serde_json writing the parsed payload (preserve_order keeps its canonical member order), hashed,"
            + " plus the two HMACs";

    private FingerprintBench() {}

    static BenchResult run(BenchPlan plan, PrintStream progress) throws Exception {
        Path folder = Files.createDirectories(plan.work().resolve("fingerprint"));
        Map<String, ObjectNode> requests = FingerprintRequests.all();
        Path lines = folder.resolve("requests.jsonl");
        StringBuilder text = new StringBuilder();
        requests.forEach((name, request) -> {
            ObjectNode line = JsonNodeFactory.instance.objectNode().put("name", name);
            line.set("request", request);
            text.append(line).append('\n');
        });
        Files.writeString(lines, text);

        Map<String, Double> java = JmhRun.opsPerSecond(FingerprintJmh.class.getName() + "\\.", Map.of(), plan.jmh(),
                folder.resolve("jmh.log"));
        JsonNode typescript = runNode(plan, lines, folder);
        JsonNode python = runHarness("python", List.of(LabHome.requireFile(plan.home().resolve("py-fixture/.venv/bin/python"),
                "build the lab first (./lab builds it)").toString(), LabHome.requireFile(plan.home().resolve("py-fixture/src/fingerprint-bench.py"),
                "the lab's checkout").toString()), plan, lines, folder);
        JsonNode go = runHarness("go", List.of(LabHome.requireFile(plan.home().resolve("go-fixture/target/bin/fingerprint-bench"),
                "build the lab first (./lab builds it)").toString()), plan, lines, folder);
        JsonNode rust = runHarness("rust", List.of(LabHome.requireFile(plan.home().resolve("rust-fixture/target/release/fingerprint-bench"),
                "build the lab first (./lab builds it)").toString()), plan, lines, folder);
        // the sides with a harness of their own, in the SDKs' column order, and what each one's floor times
        Map<String, JsonNode> harnesses = new LinkedHashMap<>();
        harnesses.put("python", python);
        harnesses.put("go", go);
        harnesses.put("rust", rust);
        Map<String, String> floors = Map.of("python", PYTHON_FLOOR, "go", GO_FLOOR, "rust", RUST_FLOOR);
        RequestFingerprint fingerprint = new RequestFingerprint(FingerprintKey.of(HexFormat.of().parseHex(WireSettings.FINGERPRINT_KEY_HEX)));

        ObjectNode figures = JsonNodeFactory.instance.objectNode();
        figures.put("node", typescript.path("node").asText());
        List<Goal> goals = new ArrayList<>();
        for (JsonNode ts : typescript.path("results")) {
            String name = ts.path("name").asText();
            String javaDigest = fingerprint.digest(LogicalRequestReader.read(requests.get(name)));
            if (!javaDigest.equals(ts.path("digest").asText())) {
                throw new IllegalStateException(name + ": Java and TypeScript digests differ");
            }
            Timings timings = new Timings(1e9 / java.get("fingerprint[" + name + "]"), 1e9 / java.get("bareHashing[" + name + "]"),
                    ts.path("fingerprint_ns_per_op").asDouble(), ts.path("bare_ns_per_op").asDouble(),
                    ts.path("floor_ns_per_op").asDouble());
            ObjectNode row = figures.putObject(name);
            putRow(row, requests.get(name), ts, timings);
            goals.addAll(goals(name, timings));
            double javaFloorNs = 1e9 / java.get("floor[" + name + "]");
            row.put("java_floor_us", Round.of(javaFloorNs / 1000));
            goals.add(floorGoal("java", name, timings.javaNs(), javaFloorNs, "Jackson writing the payload from a tree in canonical order",
                    null));
            goals.add(floorGoal("typescript", name, timings.tsNs(), timings.tsFloorNs(), TS_FLOOR, ts.path("floor_rounds")));
            for (Map.Entry<String, JsonNode> other : harnesses.entrySet()) {
                JsonNode measured = resultFor(other.getValue(), name, other.getKey());
                if (!javaDigest.equals(measured.path("digest").asText())) {
                    throw new IllegalStateException(name + ": Java and " + other.getKey() + " digests differ");
                }
                double ns = measured.path("fingerprint_ns_per_op").asDouble();
                double floorNs = measured.path("floor_ns_per_op").asDouble();
                row.put(other.getKey() + "_us_per_fingerprint", Round.of(ns / 1000));
                row.put(other.getKey() + "_bare_us", Round.of(measured.path("bare_ns_per_op").asDouble() / 1000));
                row.put(other.getKey() + "_floor_us", Round.of(floorNs / 1000));
            }
        }
        // the row's goals in the SDKs' order, after the per-request goals above
        for (Map.Entry<String, JsonNode> harness : harnesses.entrySet()) {
            String sdk = harness.getKey();
            for (JsonNode result : harness.getValue().path("results")) {
                goals.add(floorGoal(sdk, result.path("name").asText(), result.path("fingerprint_ns_per_op").asDouble(),
                        result.path("floor_ns_per_op").asDouble(), floors.get(sdk),
                        result.path("floor_rounds")));
            }
        }
        figures.put("python", python.path("python").asText());
        figures.put("go", go.path("go").asText());
        figures.put("rust", rust.path("rust").asText());
        progress.printf("bench      fingerprint: case-01 Java %.1f us, TS %.1f us%n",
                figures.path(FingerprintRequests.CASE_01).path("java_us_per_fingerprint").asDouble(),
                figures.path(FingerprintRequests.CASE_01).path("typescript_us_per_fingerprint").asDouble());
        return new BenchResult("fingerprint", "Request fingerprint",
                "JMH (throughput, " + (plan.jmh().forks() == 0 ? "in the lab's JVM" : plan.jmh().forks() + " fork") + ") for Java;"
                        + " a timed loop in node (dist/bench/fingerprint-bench.js) for TypeScript; bare = HMAC-SHA256 of both"
                        + " opaque-field messages + SHA-256 of the canonical payload, same bytes, same language, same"
                        + " primitives as the fingerprint (Java: one Mac and one MessageDigest reused; node: createSecretKey"
                        + " key, crypto.hash), timed in the same process",
                figures, goals, List.of());
    }

    /** Nanoseconds per operation of one request: each language's fingerprint and bare hashing, and node's floor. */
    private record Timings(double javaNs, double javaBareNs, double tsNs, double tsBareNs, double tsFloorNs) {}

    private static void putRow(ObjectNode row, ObjectNode request, JsonNode ts, Timings t) {
        row.put("canonical_arguments_bytes", FingerprintRequests.size((ObjectNode) request.get("arguments")));
        row.put("canonical_payload_bytes", ts.path("canonical_payload_bytes").asInt());
        row.put("java_fingerprints_per_s", Round.of(1e9 / t.javaNs()));
        row.put("java_bare_hashing_per_s", Round.of(1e9 / t.javaBareNs()));
        row.put("typescript_fingerprints_per_s", Round.of(1e9 / t.tsNs()));
        row.put("typescript_bare_hashing_per_s", Round.of(1e9 / t.tsBareNs()));
        row.put("java_us_per_fingerprint", Round.of(t.javaNs() / 1000));
        row.put("java_bare_us", Round.of(t.javaBareNs() / 1000));
        row.put("typescript_us_per_fingerprint", Round.of(t.tsNs() / 1000));
        row.put("typescript_bare_us", Round.of(t.tsBareNs() / 1000));
        row.put("typescript_floor_us", Round.of(t.tsFloorNs() / 1000));
        row.put("digests_agree", true);
    }

    private static List<Goal> goals(String name, Timings t) {
        double javaNs = t.javaNs();
        double javaBareNs = t.javaBareNs();
        double tsNs = t.tsNs();
        double tsBareNs = t.tsBareNs();
        double tsFloorNs = t.tsFloorNs();
        List<Goal> goals = new ArrayList<>();
        // case-01 keeps the goal id it always had; the 64 KiB request's carries its name, like the others
        goals.add(Goal.atMost(name.equals(FingerprintRequests.CASE_01) ? "fingerprint_java_vs_bare" : "fingerprint_java_vs_bare_" + name,
                "Java fingerprint <= 3x the bare hashing cost (" + name + ")",
                "Java fingerprint", javaNs / 1000, "Java bare HMAC+SHA-256", javaBareNs / 1000, "us/op", 3));
        goals.add(Goal.atMost("fingerprint_typescript_vs_bare_" + name, "TS fingerprint <= 3x the bare hashing cost (" + name + ")",
                "TS fingerprint", tsNs / 1000, "TS bare HMAC+SHA-256 (node:crypto)", tsBareNs / 1000, "us/op", 3)
                .withFloor(TS_FLOOR, tsFloorNs / tsBareNs));
        // The slower language's floor (node's: TS_FLOOR; Java's: its bare hashing, the least measured there)
        // against the faster one's whole fingerprint: no faster code on the slower side gets below it.
        boolean javaSlower = javaNs >= tsNs;
        double slowerFloorNs = javaSlower ? javaBareNs : tsFloorNs;
        goals.add(Goal.atMost("fingerprint_java_vs_typescript_" + name, "Java and TS fingerprint within 2x (" + name + ")",
                (javaSlower ? "Java" : "TS") + " fingerprint (slower)", Math.max(javaNs, tsNs) / 1000,
                (javaSlower ? "TS" : "Java") + " fingerprint (faster)", Math.min(javaNs, tsNs) / 1000, "us/op", 2)
                .withFloor((javaSlower ? "Java's bare hashing" : TS_FLOOR) + " / the faster fingerprint",
                        slowerFloorNs / Math.min(javaNs, tsNs)));
        return goals;
    }

    /**
     * Row 4: {@code sdk}'s fingerprint against that runtime's own floor for the same request; the ratio is the median of
     * the harness's interleaved rounds ({@code floor_rounds}) where it has them (JMH times Java's apart).
     */
    private static Goal floorGoal(String sdk, String name, double ns, double floorNs, String floor, JsonNode rounds) {
        Goal goal = Goal.atMost("fingerprint_floor_" + sdk + "_" + name, sdk + " fingerprint <= 1.5x its runtime's floor (" + name + ")",
                sdk + " fingerprint", ns / 1000, sdk + " floor: " + floor, floorNs / 1000, "us/op", 1.5);
        if (rounds == null || !rounds.isArray() || rounds.isEmpty()) {
            return goal;
        }
        List<Double> ratios = new ArrayList<>();
        rounds.forEach(r -> ratios.add(r.asDouble()));
        return goal.withRounds(ratios);
    }

    private static JsonNode resultFor(JsonNode harness, String name, String sdk) {
        for (JsonNode result : harness.path("results")) {
            if (result.path("name").asText().equals(name)) {
                return result;
            }
        }
        throw new IllegalStateException("the " + sdk + " fingerprint benchmark has no result for " + name);
    }

    /**
     * One language's side (ts-fixture/dist/bench/fingerprint-bench.js, py-fixture/src/fingerprint-bench.py,
     * go-fixture/cmd/fingerprint-bench, rust-fixture/src/bin/fingerprint-bench.rs) on the requests, given only PATH and
     * the key: its one JSON line.
     */
    private static JsonNode runHarness(String sdk, List<String> command, BenchPlan plan, Path lines, Path folder)
            throws IOException, InterruptedException {
        List<String> full = new ArrayList<>(command);
        full.add(lines.toString());
        full.add(Long.toString(plan.nodeBenchMillis()));
        Path log = folder.resolve(sdk + ".stderr.log");
        Exec.Result run = Exec.command(full)
                .onlyEnvironment(Map.of("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"),
                        "CONTINUATION_REPLAY_FINGERPRINT_KEY_HEX", WireSettings.FINGERPRINT_KEY_HEX))
                .withStderr(Exec.Io.appendTo(log)).run(Duration.ofSeconds(120));
        if (!run.succeeded()) {
            throw new IllegalStateException("the " + sdk + " fingerprint benchmark failed (see " + log + ")");
        }
        return ExactJson.parse(run.output().trim());
    }

    private static JsonNode runNode(BenchPlan plan, Path lines, Path folder) throws IOException, InterruptedException {
        Path script = LabHome.requireFile(plan.home().resolve("ts-fixture/dist/bench/fingerprint-bench.js"),
                "build the lab first (./lab builds it)");
        return runHarness("typescript", List.of(LabHome.node(), script.toString()), plan, lines, folder);
    }
}
