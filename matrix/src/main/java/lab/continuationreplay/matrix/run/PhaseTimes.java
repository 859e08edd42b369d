package lab.continuationreplay.matrix.run;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import lab.continuationreplay.vectors.ExactJson;

/**
 * Where a matrix run spends its time, per phase (summed over cases): starting server processes until they answer,
 * the case scripts, stopping processes, evidence, verification, vectors and reports. Written only when the
 * {@code lab.matrix.phases} system property names a file ({@code lab bench} sets it); never part of the evidence.
 */
public final class PhaseTimes {
    public static final String PROPERTY = "lab.matrix.phases";
    public static final String PROCESS_STARTS = "process_starts";
    public static final String PROCESS_EXITS = "process_exits";
    public static final String CASE_SCRIPTS = "case_scripts";
    public static final String EVIDENCE = "evidence";
    public static final String VERIFICATION = "verification";
    public static final String VECTORS = "vectors";
    public static final String REPORTS = "reports";

    private static final Map<String, AtomicLong> NANOS = new ConcurrentHashMap<>();
    private static final Map<String, AtomicLong> COUNTS = new ConcurrentHashMap<>();

    private PhaseTimes() {}

    public static void add(String phase, long nanos) {
        NANOS.computeIfAbsent(phase, p -> new AtomicLong()).addAndGet(nanos);
        COUNTS.computeIfAbsent(phase, p -> new AtomicLong()).incrementAndGet();
    }

    /** Milliseconds and counts per phase; {@code calls} is the case scripts without the process starts and exits. */
    public static ObjectNode toJson() {
        ObjectNode json = JsonNodeFactory.instance.objectNode();
        Map<String, Long> ms = new TreeMap<>();
        NANOS.forEach((phase, nanos) -> ms.put(phase, nanos.get() / 1_000_000));
        ms.forEach((phase, value) -> {
            json.putObject(phase).put("ms", value).put("count", COUNTS.get(phase).get());
        });
        long scripts = ms.getOrDefault(CASE_SCRIPTS, 0L);
        json.putObject("calls").put("ms", Math.max(0, scripts - ms.getOrDefault(PROCESS_STARTS, 0L)
                - ms.getOrDefault(PROCESS_EXITS, 0L)));
        return json;
    }

    /**
     * {@code lab matrix --timings}: the run's wall time, then each phase, slowest first, with its count. A phase is
     * summed over the cases that play side by side, so phases can add up to more than the wall time.
     */
    public static java.util.List<String> lines(long wallNanos) {
        java.util.List<String> lines = new java.util.ArrayList<>();
        lines.add(String.format(java.util.Locale.ROOT, "wall %.1f s; each phase summed over the cases playing side by side, slowest first:",
                wallNanos / 1e9));
        NANOS.entrySet().stream().sorted((a, b) -> Long.compare(b.getValue().get(), a.getValue().get())).forEach(phase -> {
            long count = COUNTS.get(phase.getKey()).get();
            double seconds = phase.getValue().get() / 1e9;
            lines.add(String.format(java.util.Locale.ROOT, "  %-15s %7.1f s over %4d (%.2f s each)", phase.getKey(), seconds, count,
                    seconds / count));
        });
        return lines;
    }

    /** Writes the phases to the file named by {@link #PROPERTY}, if any. */
    public static void writeIfAsked() throws IOException {
        String file = System.getProperty(PROPERTY);
        if (file != null && !file.isBlank()) {
            Files.writeString(Path.of(file), ExactJson.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(toJson()) + "\n");
        }
    }
}
