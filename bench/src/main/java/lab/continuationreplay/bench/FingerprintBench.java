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
 * Benchmark 4: fingerprints per second for case 01's request and a 64 KiB arguments object, in Java (JMH) and in
 * TypeScript ({@code ts-fixture/dist/bench/fingerprint-bench.js}), each against the bare HMAC-SHA256 + SHA-256 cost
 * of the same canonical bytes in its own language. Both sides must produce the same digest.
 */
final class FingerprintBench {
    /** What the TypeScript floor times (see ts-fixture/src/bench/fingerprint-bench.ts). */
    static final String TS_FLOOR = "node's JSON.stringify of the payload already in canonical order, hashed from the string,"
            + " plus the two HMACs: no checks, no ordering";

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
            putRow(figures.putObject(name), requests.get(name), ts, timings);
            goals.addAll(goals(name, timings));
        }
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

    private static JsonNode runNode(BenchPlan plan, Path lines, Path folder) throws IOException, InterruptedException {
        Path script = LabHome.requireFile(plan.home().resolve("ts-fixture/dist/bench/fingerprint-bench.js"),
                "build the lab first (./lab builds it)");
        Exec.Result node = Exec.command(LabHome.node(), script.toString(), lines.toString(), Long.toString(plan.nodeBenchMillis()))
                .onlyEnvironment(Map.of("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"),
                        "CONTINUATION_REPLAY_FINGERPRINT_KEY_HEX", WireSettings.FINGERPRINT_KEY_HEX))
                .withStderr(Exec.Io.appendTo(folder.resolve("node.stderr.log"))).run(Duration.ofSeconds(120));
        if (!node.succeeded()) {
            throw new IllegalStateException("the TypeScript fingerprint benchmark failed (see " + folder.resolve("node.stderr.log") + ")");
        }
        return ExactJson.parse(node.output().trim());
    }
}
