package lab.continuationreplay.containers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.charset.CodingErrorAction;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import lab.continuationreplay.history.Format;
import lab.continuationreplay.vectors.CanonicalJson;
import lab.continuationreplay.vectors.ExactJson;

/**
 * The comparison across runtime cells: {@code runtimes.json} and {@code runtimes.md} at the top of an in-container
 * matrix folder. Per cell: each SDK's passed/requested as the host verified it, whether the SDKs agree, the container's
 * exit status and wall time. Across cells: whether every outcome, and every verified record apart from its artifact
 * hashes, is identical; and the diagnostics that appear on some runtimes only. Differences are findings, shown here,
 * never dropped; only a cell that fails (or an outcome that differs) makes the run fail.
 */
public final class RuntimeTable {
    public static final String JSON = "runtimes.json";
    public static final String MARKDOWN = "runtimes.md";
    private static final int MAX_LINES = 40;

    private RuntimeTable() {}

    public static ObjectNode write(Path out, List<CellVerdict> cells, double imageSeconds) throws IOException {
        ObjectNode table = summarise(cells, imageSeconds);
        Files.writeString(out.resolve(JSON), ExactJson.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(table) + "\n");
        Files.writeString(out.resolve(MARKDOWN), markdown(table));
        return table;
    }

    public static ObjectNode summarise(List<CellVerdict> cells, double imageSeconds) throws IOException {
        JsonNodeFactory f = JsonNodeFactory.instance;
        ObjectNode table = Format.RUNTIMES.document();
        ArrayNode rows = table.putArray("cells");
        boolean allOk = !cells.isEmpty();
        for (CellVerdict cell : cells) {
            ObjectNode row = rows.addObject();
            row.put("cell", cell.cell().id());
            row.put("image", cell.image());
            row.put("java_version", cell.javaVersion());
            row.put("java_vm", cell.javaVm());
            row.put("node_version", cell.nodeVersion());
            row.put("exit_code", cell.exitCode());
            row.put("wall_seconds", Math.round(cell.wallSeconds() * 10) / 10.0);
            ObjectNode attempts = row.putObject("attempts");
            cell.attempts().forEach((name, verdict) -> {
                ObjectNode a = attempts.putObject(name);
                a.put("requested", verdict.requested());
                a.put("executed", verdict.executed());
                a.put("passed", verdict.passed());
                a.put("verification_agrees", verdict.problems().isEmpty());
            });
            row.put("outcomes_agree", cell.outcomesAgree());
            row.put("ok", cell.ok());
            row.set("problems", ExactJson.mapper().valueToTree(cell.problems()));
            allOk &= cell.ok();
        }
        table.put("image_build_seconds", Math.round(imageSeconds * 10) / 10.0);

        ArrayNode outcomeDifferences = table.putArray("outcome_differences");
        ArrayNode recordDifferences = table.putArray("record_differences");
        for (Map.Entry<String, Map<String, Map<String, JsonNode>>> attempt : recordsByAttemptAndCase(cells).entrySet()) {
            for (Map.Entry<String, Map<String, JsonNode>> byCase : attempt.getValue().entrySet()) {
                Map<String, JsonNode> byCell = byCase.getValue();
                if (distinct(byCell, cells, r -> r.path("outcome")).size() > 1) {
                    ObjectNode d = outcomeDifferences.addObject().put("attempt", attempt.getKey()).put("case_id", byCase.getKey());
                    ObjectNode per = d.putObject("outcomes");
                    cells.forEach(c -> per.set(c.cell().id(), byCell.containsKey(c.cell().id())
                            ? byCell.get(c.cell().id()).path("outcome") : f.textNode("missing")));
                }
                if (distinct(byCell, cells, RuntimeTable::withoutHashes).size() > 1) {
                    recordDifferences.add(recordDifference(attempt.getKey(), byCase.getKey(), byCell));
                }
            }
        }
        boolean outcomesIdentical = outcomeDifferences.isEmpty();
        table.put("outcomes_identical_across_cells", outcomesIdentical);
        table.put("records_identical_across_cells", recordDifferences.isEmpty());
        table.set("stderr_differences", stderrDifferences(cells));
        table.put("all_ok", allOk && outcomesIdentical);
        return table;
    }

    /** attempt name → case id → cell id → verified record. */
    private static Map<String, Map<String, Map<String, JsonNode>>> recordsByAttemptAndCase(List<CellVerdict> cells) {
        Map<String, Map<String, Map<String, JsonNode>>> all = new LinkedHashMap<>();
        for (CellVerdict cell : cells) {
            cell.attempts().forEach((name, verdict) -> verdict.records().forEach(r -> all
                    .computeIfAbsent(name, n -> new TreeMap<>())
                    .computeIfAbsent(r.path("case_id").asText(), id -> new LinkedHashMap<>())
                    .put(cell.cell().id(), r)));
        }
        return all;
    }

    private static Set<String> distinct(Map<String, JsonNode> byCell, List<CellVerdict> cells,
            java.util.function.Function<JsonNode, JsonNode> view) {
        Set<String> seen = new LinkedHashSet<>();
        for (CellVerdict cell : cells) {
            JsonNode record = byCell.get(cell.cell().id());
            seen.add(record == null ? "missing" : CanonicalJson.canonical(view.apply(record)));
        }
        return seen;
    }

    /** A record without its artifact hashes: transcripts carry fresh nonces and sealed states, so those always differ. */
    private static JsonNode withoutHashes(JsonNode record) {
        ObjectNode copy = record.deepCopy();
        copy.remove("artifact_hashes");
        return copy;
    }

    /**
     * How one case's verified records differ across cells: the cells grouped by identical record (artifact hashes
     * aside), and for each group after the first the JSON paths where it differs from the first, e.g. case 08's race
     * won by the other worker: {@code /independent_wire/calls/1/reply/structured/replayed}.
     */
    private static ObjectNode recordDifference(String attempt, String caseId, Map<String, JsonNode> byCell) {
        Map<String, List<String>> cellsByRecord = new LinkedHashMap<>();
        Map<String, JsonNode> recordByKey = new LinkedHashMap<>();
        byCell.forEach((cell, record) -> {
            JsonNode view = withoutHashes(record);
            String key = CanonicalJson.canonical(view);
            cellsByRecord.computeIfAbsent(key, k -> new ArrayList<>()).add(cell);
            recordByKey.putIfAbsent(key, view);
        });
        ObjectNode difference = JsonNodeFactory.instance.objectNode().put("attempt", attempt).put("case_id", caseId);
        ArrayNode variants = difference.putArray("variants");
        JsonNode first = null;
        for (Map.Entry<String, List<String>> entry : cellsByRecord.entrySet()) {
            JsonNode record = recordByKey.get(entry.getKey());
            ObjectNode variant = variants.addObject();
            variant.set("cells", ExactJson.mapper().valueToTree(entry.getValue()));
            if (first == null) {
                first = record;
            } else {
                List<String> paths = new ArrayList<>();
                diff(first, record, "", paths);
                variant.set("differs_at", ExactJson.mapper().valueToTree(paths));
            }
        }
        return difference;
    }

    private static void diff(JsonNode a, JsonNode b, String path, List<String> paths) {
        if (paths.size() >= 8 || a.equals(b)) {
            return;
        }
        if (a.isObject() && b.isObject()) {
            Set<String> names = new TreeSet<>();
            a.fieldNames().forEachRemaining(names::add);
            b.fieldNames().forEachRemaining(names::add);
            for (String name : names) {
                diff(a.path(name), b.path(name), path + "/" + name, paths);
            }
        } else if (a.isArray() && b.isArray() && a.size() == b.size()) {
            for (int i = 0; i < a.size(); i++) {
                diff(a.get(i), b.get(i), path + "/" + i, paths);
            }
        } else {
            paths.add(path + ": " + abbreviate(a) + " vs " + abbreviate(b));
        }
    }

    private static String abbreviate(JsonNode node) {
        String text = node.isMissingNode() ? "(absent)" : CanonicalJson.canonical(node);
        return text.length() > 80 ? text.substring(0, 80) + "…" : text;
    }

    /**
     * Lines of the processes' stderr logs that appear in some cells but not in all: a runtime's own diagnostics
     * (a JDK warning, a Node.js deprecation). Digits are folded to N so thread numbers do not count as differences.
     */
    static ArrayNode stderrDifferences(List<CellVerdict> cells) throws IOException {
        Map<String, Map<String, Integer>> filesByLine = new TreeMap<>();
        for (CellVerdict cell : cells) {
            if (!Files.isDirectory(cell.folder())) {
                continue;
            }
            List<Path> logs;
            try (Stream<Path> files = Files.walk(cell.folder())) {
                logs = files.filter(p -> p.getFileName().toString().endsWith(".stderr.log")).sorted().toList();
            }
            for (Path log : logs) {
                for (String line : new LinkedHashSet<>(lines(log))) {
                    filesByLine.computeIfAbsent(line, l -> new TreeMap<>()).merge(cell.cell().id(), 1, Integer::sum);
                }
            }
        }
        ArrayNode differences = JsonNodeFactory.instance.arrayNode();
        int omitted = 0;
        for (Map.Entry<String, Map<String, Integer>> entry : filesByLine.entrySet()) {
            if (entry.getValue().size() == cells.size()) {
                continue;
            }
            if (differences.size() >= MAX_LINES) {
                omitted++;
                continue;
            }
            ObjectNode d = differences.addObject().put("line", entry.getKey());
            ObjectNode per = d.putObject("logs_per_cell");
            cells.forEach(c -> per.put(c.cell().id(), entry.getValue().getOrDefault(c.cell().id(), 0)));
        }
        if (omitted > 0) {
            differences.addObject().put("line", "(" + omitted + " more lines differ; see the cells' *.stderr.log)");
        }
        return differences;
    }

    private static List<String> lines(Path log) throws IOException {
        String text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPLACE)
                .onUnmappableCharacter(CodingErrorAction.REPLACE).decode(java.nio.ByteBuffer.wrap(Files.readAllBytes(log))).toString();
        List<String> lines = new ArrayList<>();
        for (String line : text.split("\n")) {
            String folded = line.strip().replaceAll("\\d+", "N");
            if (!folded.isEmpty()) {
                lines.add(folded.length() > 300 ? folded.substring(0, 300) + "…" : folded);
            }
        }
        return lines;
    }

    public static String markdown(JsonNode table) {
        StringBuilder md = new StringBuilder();
        md.append("# The matrix across runtimes\n\n");
        md.append("Each cell ran `lab matrix` (every SDK asked for, the cross-SDK cells and the controls) in its own container, network")
                .append(" `none`, from a runner image built on this machine. The host then verified every attempt again from")
                .append(" its artifacts alone, trusting nothing the container concluded.\n\n");
        md.append(cellTable(table)).append('\n').append(verdictLines(table)).append('\n');
        md.append("## Images\n\n");
        table.path("cells").forEach(c -> md.append("- ").append(c.path("cell").asText()).append(": `").append(c.path("image").asText())
                .append("` (").append(c.path("java_vm").asText("?")).append(")\n"));
        md.append("\n## Differences between runtimes (findings)\n\n");
        boolean any = appendOutcomeAndRecordDifferences(md, table);
        JsonNode stderr = table.path("stderr_differences");
        if (!stderr.isEmpty()) {
            md.append(any ? "\n" : "");
            any = true;
            appendStderrDifferences(md, table, stderr);
        }
        if (!any) {
            md.append("None: the same outcomes, records and diagnostics on every runtime.\n");
        }
        appendProblems(md, table);
        return md.toString();
    }

    /** The outcomes and verified records that differ between cells, one line each; whether there was any. */
    private static boolean appendOutcomeAndRecordDifferences(StringBuilder md, JsonNode table) {
        boolean any = false;
        for (JsonNode d : table.path("outcome_differences")) {
            any = true;
            md.append("- outcome of ").append(d.path("attempt").asText()).append(" case ").append(d.path("case_id").asText())
                    .append(": ").append(CanonicalJson.canonical(d.path("outcomes"))).append('\n');
        }
        for (JsonNode d : table.path("record_differences")) {
            any = true;
            md.append("- verified record of ").append(d.path("attempt").asText()).append(" case ").append(d.path("case_id").asText())
                    .append(":");
            for (JsonNode variant : d.path("variants")) {
                md.append(" [").append(String.join(", ", strings(variant.path("cells")))).append("]");
                if (variant.has("differs_at")) {
                    md.append(" differ at `").append(String.join("`, `", strings(variant.path("differs_at")))).append('`');
                }
                md.append(';');
            }
            md.setLength(md.length() - 1);
            md.append('\n');
        }
        if (!table.path("record_differences").isEmpty()) {
            md.append("\nA record difference with identical outcomes is not a failure: the predicate and the outcome hold in")
                    .append(" every cell. Case 08 is a race by design (two processes released at a barrier), so which worker")
                    .append(" gets `replayed: false` is decided by scheduling and may change between any two runs, on any runtime.\n");
        }
        return any;
    }

    /** The stderr lines seen in some cells only, as a table with a column per cell. */
    private static void appendStderrDifferences(StringBuilder md, JsonNode table, JsonNode stderr) {
        md.append("Diagnostics on stderr that appear in some cells only (digits folded to N; the number is how many of")
                .append(" the cell's `*.stderr.log` files hold the line):\n\n");
        List<String> ids = new ArrayList<>();
        table.path("cells").forEach(c -> ids.add(c.path("cell").asText()));
        md.append("| line | ").append(String.join(" | ", ids)).append(" |\n");
        md.append("|---|").append("---|".repeat(ids.size())).append('\n');
        for (JsonNode d : stderr) {
            md.append("| `").append(d.path("line").asText().replace("|", "\\|").replace("`", "'")).append("` |");
            for (String id : ids) {
                md.append(' ').append(d.path("logs_per_cell").has(id) ? d.path("logs_per_cell").path(id).asInt() : "").append(" |");
            }
            md.append('\n');
        }
    }

    /** Every cell's problems, under a heading of their own when there are any. */
    private static void appendProblems(StringBuilder md, JsonNode table) {
        boolean problems = false;
        for (JsonNode c : table.path("cells")) {
            for (JsonNode p : c.path("problems")) {
                if (!problems) {
                    md.append("\n## Problems\n\n");
                    problems = true;
                }
                md.append("- ").append(c.path("cell").asText()).append(": ").append(p.asText()).append('\n');
            }
        }
    }

    /** The per-cell table (markdown), also printed by {@code lab matrix --in-container}. */
    public static String cellTable(JsonNode table) {
        // A column per SDK the images carry, in the matrix's column order.
        List<String> sdks = InContainerMatrix.SDKS_IN_IMAGES;
        StringBuilder md = new StringBuilder();
        md.append("| cell | Java | Node.js | ").append(String.join(" | ", sdks))
                .append(" | cross-SDK | SDKs agree | host verification | exit | wall time |\n");
        md.append("|---".repeat(3 + sdks.size() + 5)).append("|\n");
        for (JsonNode c : table.path("cells")) {
            JsonNode attempts = c.path("attempts");
            int crossPassed = 0;
            int crossRequested = 0;
            boolean verified = true;
            for (var it = attempts.fields(); it.hasNext(); ) {
                var a = it.next();
                verified &= a.getValue().path("verification_agrees").asBoolean();
                if (a.getKey().startsWith("cross-")) {
                    crossPassed += a.getValue().path("passed").asInt();
                    crossRequested += a.getValue().path("requested").asInt();
                }
            }
            md.append("| ").append(c.path("cell").asText())
                    .append(" | ").append(c.path("java_version").asText("?"))
                    .append(" | ").append(c.path("node_version").asText("?"));
            for (String sdk : sdks) {
                md.append(" | ").append(fraction(attempts.path(sdk)));
            }
            md.append(" | ").append(crossRequested == 0 ? "–" : crossPassed + "/" + crossRequested)
                    .append(" | ").append(c.path("outcomes_agree").asBoolean() ? "yes" : "**no**")
                    .append(" | ").append(attempts.isEmpty() ? "**nothing to verify**" : verified ? "agrees" : "**problems**")
                    .append(" | ").append(c.path("exit_code").asInt())
                    .append(" | ").append(String.format(Locale.ROOT, "%.0f s", c.path("wall_seconds").asDouble()))
                    .append(" |\n");
        }
        return md.toString();
    }

    /** Whether the runtimes agree, as bullet lines. */
    public static String verdictLines(JsonNode table) {
        StringBuilder md = new StringBuilder();
        md.append("- Outcomes identical across the cells: ")
                .append(table.path("outcomes_identical_across_cells").asBoolean() ? "**yes**" : "**NO** (see below)").append('\n');
        md.append("- Verified records identical across the cells, apart from artifact hashes (fresh nonces): ")
                .append(table.path("records_identical_across_cells").asBoolean() ? "**yes**" : "**no** (see below)").append('\n');
        md.append(String.format(Locale.ROOT, "- Runner images built or found in the cache in %.0f s\n",
                table.path("image_build_seconds").asDouble()));
        md.append("- Overall: ").append(table.path("all_ok").asBoolean() ? "**every cell passes; the outcomes are the same on every runtime**"
                : "**FAILED**").append("\n");
        int findings = table.path("outcome_differences").size() + table.path("record_differences").size()
                + table.path("stderr_differences").size();
        md.append("- Differences between runtimes recorded as findings: ").append(findings).append('\n');
        return md.toString();
    }

    private static String fraction(JsonNode attempt) {
        return attempt.isMissingNode() ? "–" : attempt.path("passed").asInt() + "/" + attempt.path("requested").asInt();
    }

    private static List<String> strings(JsonNode array) {
        List<String> list = new ArrayList<>();
        array.forEach(n -> list.add(n.asText()));
        return list;
    }
}
