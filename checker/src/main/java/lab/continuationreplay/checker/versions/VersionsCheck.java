package lab.continuationreplay.checker.versions;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import lab.continuationreplay.checker.AttemptCheck;
import lab.continuationreplay.checker.Verdict;
import lab.continuationreplay.history.VersionsLayout;
import lab.continuationreplay.vectors.ExactJson;

/**
 * The release × case table of a {@code lab versions} run, derived from its history alone: each release's
 * {@code build.json}, and its matrix folder judged again by {@link AttemptCheck}. Where a case's verdict changes
 * from one release to the next, the table names the change.
 */
public final class VersionsCheck {
    /** A release's build: played (with or without type errors) or not built, and then no case played. */
    public enum Build {
        BUILT("built"), BUILT_WITH_TYPE_ERRORS("built with type errors"), NOT_BUILT("not built");

        private final String wire;

        Build(String wire) {
            this.wire = wire;
        }

        public String wire() {
            return wire;
        }
    }

    /**
     * One release's row: its build, each case's verdict ("pass", "fail" or "not played"), why each failed case failed
     * (the checker's violations), why a release was not built (the first error its build reported; empty when built),
     * and every problem with the run itself (a history that disagrees, a case the lab could not play to its end).
     */
    public record Row(String sdk, String release, String installed, Build build, int typeErrors, Map<String, String> cases,
            Map<String, String> why, String notBuilt, List<String> problems) {
        public long passed() {
            return cases.values().stream().filter("pass"::equals).count();
        }
    }

    /** A case whose verdict differs between two releases next to each other. */
    public record Change(String sdk, String caseId, String before, String beforeVerdict, String after, String afterVerdict) {}

    public record Table(List<String> caseIds, List<Row> rows, List<Change> changes) {
        /**
         * Every release asked for has its row: built and played to its end, or not built (its build log says why), and
         * every history agrees with its results. Cases that fail are the table's content, not an incomplete run.
         */
        public boolean complete() {
            return rows.stream().allMatch(r -> r.problems().isEmpty()
                    && (r.build() == Build.NOT_BUILT || !r.cases().containsValue("not played")));
        }
    }

    private VersionsCheck() {}

    public static boolean handles(Path folder) {
        return Files.isRegularFile(folder.resolve(VersionsLayout.RUN_FILE));
    }

    public static Table derive(Path out) throws IOException {
        JsonNode run = ExactJson.parse(Files.readString(out.resolve(VersionsLayout.RUN_FILE)));
        if (!VersionsLayout.RUN_FORMAT.equals(run.path("format").asText())) {
            throw new IllegalArgumentException(out.resolve(VersionsLayout.RUN_FILE) + " is not " + VersionsLayout.RUN_FORMAT);
        }
        List<Row> rows = new ArrayList<>();
        List<String> caseIds = new ArrayList<>();
        for (JsonNode asked : run.path("releases")) {
            Row row = row(out, asked.path("sdk").asText(), asked.path("release").asText());
            row.cases().keySet().stream().filter(id -> !caseIds.contains(id)).forEach(caseIds::add);
            rows.add(row);
        }
        caseIds.sort(null);
        List<Row> filled = new ArrayList<>();
        for (Row row : rows) {
            Map<String, String> cases = new LinkedHashMap<>();
            caseIds.forEach(id -> cases.put(id, row.cases().getOrDefault(id, "not played")));
            filled.add(new Row(row.sdk(), row.release(), row.installed(), row.build(), row.typeErrors(), cases, row.why(), row.notBuilt(),
                    row.problems()));
        }
        List<Change> changes = new ArrayList<>();
        for (int i = 1; i < filled.size(); i++) {
            Row before = filled.get(i - 1);
            Row after = filled.get(i);
            if (!before.sdk().equals(after.sdk())) {
                continue;
            }
            for (String id : caseIds) {
                String was = before.cases().get(id);
                String is = after.cases().get(id);
                if (!was.equals(is) && !"not played".equals(was) && !"not played".equals(is)) {
                    changes.add(new Change(after.sdk(), id, before.release(), was, after.release(), is));
                }
            }
        }
        return new Table(List.copyOf(caseIds), List.copyOf(filled), List.copyOf(changes));
    }

    private static Row row(Path out, String sdk, String release) throws IOException {
        Path folder = out.resolve(sdk + "-" + release);
        List<String> problems = new ArrayList<>();
        Path buildFile = folder.resolve(VersionsLayout.BUILD_FILE);
        if (!Files.isRegularFile(buildFile)) {
            problems.add(sdk + "-" + release + ": no " + VersionsLayout.BUILD_FILE);
            return new Row(sdk, release, "", Build.NOT_BUILT, 0, Map.of(), Map.of(), "", problems);
        }
        JsonNode build = ExactJson.parse(Files.readString(buildFile));
        if (!VersionsLayout.BUILD_FORMAT.equals(build.path("format").asText())) {
            problems.add(sdk + "-" + release + "/" + VersionsLayout.BUILD_FILE + " is not " + VersionsLayout.BUILD_FORMAT);
        }
        int typeErrors = build.path("type_errors").size();
        Build built = !build.path("built").asBoolean() ? Build.NOT_BUILT : typeErrors == 0 ? Build.BUILT : Build.BUILT_WITH_TYPE_ERRORS;
        Map<String, String> cases = new LinkedHashMap<>();
        Map<String, String> why = new LinkedHashMap<>();
        Path attempt = folder.resolve(VersionsLayout.MATRIX_FOLDER).resolve(sdk);
        if (built != Build.NOT_BUILT) {
            if (!Files.isDirectory(attempt)) {
                problems.add(sdk + "-" + release + ": built, but its matrix left no " + sdk + "/ folder (see matrix.stderr.log)");
            } else {
                Verdict verdict = AttemptCheck.verify(attempt);
                List<String> caseFailures = new ArrayList<>();
                for (JsonNode record : verdict.records()) {
                    String id = record.path("case_id").asText();
                    String status = record.path("status").asText();
                    cases.put(id, status);
                    if (!"pass".equals(status)) {
                        // the checker's own line for a case that failed on this release: the table's content
                        caseFailures.add("case " + id + ": " + status + " " + record.path("violations"));
                        List<String> violations = new ArrayList<>();
                        record.path("violations").forEach(v -> violations.add(v.asText()));
                        why.put(id, String.join("; ", violations));
                    }
                }
                verdict.problems().stream().filter(p -> !caseFailures.contains(p)).forEach(p -> problems.add(sdk + "-" + release + ": " + p));
            }
        }
        String notBuilt = "";
        if (built == Build.NOT_BUILT) {
            JsonNode errors = build.path("build_errors");
            notBuilt = errors.isEmpty() ? "see build.log" : errors.get(0).asText()
                    + (errors.size() > 1 ? " (and " + (errors.size() - 1) + " more in build.log)" : "");
        }
        return new Row(sdk, release, build.path("installed").asText(""), built, typeErrors, cases, why, notBuilt, problems);
    }

    /** versions.json: the table as JSON, with the format. */
    public static String json(Table table) throws IOException {
        ObjectNode root = ExactJson.mapper().createObjectNode();
        root.put("format", VersionsLayout.TABLE_FORMAT);
        ArrayNode ids = root.putArray("cases");
        table.caseIds().forEach(ids::add);
        ArrayNode rows = root.putArray("releases");
        for (Row row : table.rows()) {
            ObjectNode node = rows.addObject();
            node.put("sdk", row.sdk());
            node.put("release", row.release());
            node.put("installed", row.installed());
            node.put("build", row.build().wire());
            node.put("type_errors", row.typeErrors());
            ObjectNode cases = node.putObject("cases");
            row.cases().forEach(cases::put);
            ObjectNode why = node.putObject("why");
            row.why().forEach(why::put);
            if (row.build() == Build.NOT_BUILT) {
                node.put("not_built", row.notBuilt());
            }
            node.put("passed", row.passed());
            ArrayNode problems = node.putArray("problems");
            row.problems().forEach(problems::add);
        }
        ArrayNode changes = root.putArray("changes");
        for (Change change : table.changes()) {
            changes.addObject().put("sdk", change.sdk()).put("case", change.caseId()).put("before", change.before())
                    .put("before_verdict", change.beforeVerdict()).put("after", change.after()).put("after_verdict", change.afterVerdict());
        }
        return ExactJson.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n";
    }

    /** The table as plain text (stdout) or Markdown (VERSIONS.md): a row per release, a column per case. */
    public static String text(Table table, boolean markdown) {
        StringBuilder s = new StringBuilder();
        List<String> head = new ArrayList<>(List.of("release", "installed", "build"));
        head.addAll(table.caseIds());
        head.add("passed");
        List<List<String>> lines = new ArrayList<>();
        for (Row row : table.rows()) {
            List<String> line = new ArrayList<>(List.of(row.sdk() + " " + row.release(), row.installed().isEmpty() ? "-" : row.installed(),
                    row.build() == Build.BUILT_WITH_TYPE_ERRORS ? "built, " + row.typeErrors() + (row.typeErrors() == 1 ? " type error" : " type errors") : row.build().wire()));
            row.cases().values().forEach(v -> line.add(v.equals("not played") ? "-" : v));
            line.add(row.passed() + "/" + row.cases().size());
            lines.add(line);
        }
        if (markdown) {
            s.append("| ").append(String.join(" | ", head)).append(" |\n|");
            head.forEach(h -> s.append("---|"));
            s.append('\n');
            lines.forEach(l -> s.append("| ").append(String.join(" | ", l)).append(" |\n"));
        } else {
            int[] widths = new int[head.size()];
            for (int i = 0; i < head.size(); i++) {
                widths[i] = head.get(i).length();
                for (List<String> l : lines) {
                    widths[i] = Math.max(widths[i], l.get(i).length());
                }
            }
            List<List<String>> all = new ArrayList<>(List.of(head));
            all.addAll(lines);
            for (List<String> l : all) {
                StringBuilder out = new StringBuilder();
                for (int i = 0; i < l.size(); i++) {
                    out.append(String.format("%-" + widths[i] + "s", l.get(i))).append(i + 1 < l.size() ? "  " : "");
                }
                s.append(out.toString().stripTrailing()).append('\n');
            }
        }
        for (Row row : table.rows()) {
            if (row.build() == Build.NOT_BUILT) {
                s.append(markdown ? "- " : "why      ").append(row.sdk()).append(' ').append(row.release()).append(" not built: ")
                        .append(markdown ? "`" + row.notBuilt() + "`" : row.notBuilt()).append('\n');
            }
            // one line per distinct reason: a release that fails every case for one reason says it once
            Map<String, List<String>> byReason = new LinkedHashMap<>();
            row.why().forEach((id, reason) -> byReason.computeIfAbsent(reason, r -> new ArrayList<>()).add(id));
            byReason.forEach((reason, ids) -> s.append(markdown ? "- " : "why      ").append(row.sdk()).append(' ').append(row.release())
                    .append(ids.size() == row.cases().size() ? " every case" : " case" + (ids.size() == 1 ? " " : "s ") + String.join(", ", ids))
                    .append(": ").append(reason).append('\n'));
        }
        if (table.changes().isEmpty()) {
            s.append(markdown ? "\nNo case changes its verdict between the releases played.\n" : "changes  none between the releases played\n");
        }
        // one line per step between two releases and verdicts: the cases it concerns, listed
        Map<String, List<String>> grouped = new LinkedHashMap<>();
        for (Change c : table.changes()) {
            grouped.computeIfAbsent(c.sdk() + " %s: " + c.beforeVerdict() + " in " + c.before() + ", " + c.afterVerdict() + " in "
                    + c.after(), k -> new ArrayList<>()).add(c.caseId());
        }
        grouped.forEach((line, ids) -> s.append(markdown ? "- " : "change   ")
                .append(line.formatted((ids.size() == 1 ? "case " : "cases ") + String.join(", ", ids))).append('\n'));
        return s.toString();
    }

    /** Derives the table and writes versions.json and VERSIONS.md. */
    public static Table deriveAndWrite(Path out) throws IOException {
        Table table = derive(out);
        Files.writeString(out.resolve(VersionsLayout.TABLE_FILE), json(table), StandardCharsets.UTF_8);
        Files.writeString(out.resolve(VersionsLayout.TABLE_MD), "# lab versions\n\n" + text(table, true), StandardCharsets.UTF_8);
        return table;
    }

    /** What {@code lab verify} finds: the problems of each release, and whether versions.json says what the history does. */
    public static List<String> verify(Path out) throws IOException {
        Table table = derive(out);
        List<String> problems = new ArrayList<>();
        table.rows().forEach(r -> problems.addAll(r.problems()));
        Path file = out.resolve(VersionsLayout.TABLE_FILE);
        if (!Files.isRegularFile(file)) {
            problems.add("no " + VersionsLayout.TABLE_FILE);
        } else if (!Files.readString(file).equals(json(table))) {
            problems.add(VersionsLayout.TABLE_FILE + " does not say what the history does");
        }
        return problems;
    }
}
