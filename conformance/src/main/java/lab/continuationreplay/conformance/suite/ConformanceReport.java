package lab.continuationreplay.conformance.suite;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import lab.continuationreplay.conformance.strict.StrictCheckId;
import lab.continuationreplay.conformance.strict.StrictOutcome;
import lab.continuationreplay.conformance.strict.StrictReport;
import java.util.Set;
import lab.continuationreplay.conformance.OfficialSuite;
import lab.continuationreplay.conformance.suite.ConformanceRun.Result;
import lab.continuationreplay.conformance.suite.ConformanceRun.Row;
import lab.continuationreplay.conformance.suite.ConformanceRun.Subject;
import lab.continuationreplay.conformance.suite.ConformanceRun.Unscored;
import lab.continuationreplay.history.Format;
import lab.continuationreplay.vectors.ExactJson;
import lab.continuationreplay.history.Judgement;

/**
 * The three views of one conformance run: {@code conformance.json} (every scored scenario × server or client, with the
 * suite's own counts), {@code CONFORMANCE.md} and {@code report.html} (the same side by side), and the summary lines
 * the command prints.
 */
public final class ConformanceReport {
    public static final String JSON = "conformance.json";
    public static final String MARKDOWN = "CONFORMANCE.md";
    public static final String HTML = "report.html";

    private ConformanceReport() {}

    public static void write(Path out, Result result, String nodeVersion) throws IOException {
        Files.writeString(out.resolve(JSON), ExactJson.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(json(result, nodeVersion)) + "\n");
        Files.writeString(out.resolve(MARKDOWN), markdown(result), StandardCharsets.UTF_8);
        Files.writeString(out.resolve(HTML), html(result), StandardCharsets.UTF_8);
    }

    static ObjectNode json(Result result, String nodeVersion) {
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        Format.CONFORMANCE.stamp(root);
        ObjectNode suite = root.putObject("suite");
        suite.put("package", "@modelcontextprotocol/conformance").put("version", OfficialSuite.VERSION)
                .put("requirements", result.requirements().revision()).put("node", nodeVersion);
        root.put("passed", result.ok());
        putSubjects(root.putArray("subjects"), result);
        putScenarios(root.putArray("scenarios"), result);
        putStrict(root.putArray("strict"), result);
        ArrayNode unscored = root.putArray("unscored");
        for (Unscored other : result.unscored()) {
            unscored.addObject().put("side", other.side().label()).put("sdk", other.sdk()).put("scenario", other.scenario())
                    .put("why", other.why()).put("verdict", other.outcome().verdict().label());
        }
        return root;
    }

    /** Per server and client: its run, and how many scored scenarios got each judgement. */
    private static void putSubjects(ArrayNode subjects, Result result) {
        for (Subject subject : result.subjects()) {
            ObjectNode s = subjects.addObject().put("side", subject.side().label()).put("sdk", subject.sdk())
                    .put("wall_ms", subject.wallMillis()).put("suite_exit", subject.suiteExit());
            Map<Judgement, Integer> counts = counts(result, subject.side(), subject.sdk());
            s.put("scored", result.requirements().scored(subject.side()).size());
            for (Judgement judgement : Judgement.values()) {
                s.put(key(judgement), counts.getOrDefault(judgement, 0));
            }
            if (!subject.note().isEmpty()) {
                s.put("note", subject.note());
            }
        }
    }

    /** Per scored scenario that any SDK ran, in the requirements' order: each SDK's result. */
    private static void putScenarios(ArrayNode scenarios, Result result) {
        for (Side side : Side.values()) {
            for (String scenario : result.requirements().scored(side)) {
                ObjectNode entry = null;
                for (Row row : result.rows()) {
                    if (row.side() != side || !row.scenario().equals(scenario)) {
                        continue;
                    }
                    if (entry == null) {
                        entry = scenarios.addObject().put("side", side.label()).put("scenario", scenario);
                        entry.putObject("results");
                    }
                    putRow(((ObjectNode) entry.get("results")).putObject(row.sdk()), row);
                }
            }
        }
    }

    /** One SDK's result of one scenario: judgement, the suite's counts and failures, and the listing that expected it. */
    private static void putRow(ObjectNode cell, Row row) {
        cell.put("judgement", key(row.judgement())).put("verdict", row.outcome().verdict().label())
                .put("checks_passed", row.outcome().passed()).put("checks_failed", row.outcome().failed())
                .put("warnings", row.outcome().warnings());
        ArrayNode failures = cell.putArray("failures");
        row.outcome().failures().forEach(failures::add);
        if (row.outcome().folder() != null) {
            cell.put("folder", row.sdkFolder() + "/suite/" + row.outcome().folder());
        }
        row.expected().ifPresent(e -> cell.putObject("expected_failure").put("reason", e.reason())
                .put("sdk_location", e.sdkLocation()).put("finding", e.finding()));
    }

    /** Per strict run: whether it passed, and each check's outcome or why it did not run. */
    private static void putStrict(ArrayNode strict, Result result) {
        for (ConformanceRun.StrictRun run : result.strict()) {
            ObjectNode entry = strict.addObject().put("sdk", run.sdk()).put("passed", !run.failed());
            run.report().ifPresent(report -> {
                entry.put("summary", report.summary()).put("file", "strict-" + run.sdk() + "/" + report.file().getFileName());
                ObjectNode checks = entry.putObject("checks");
                report.checks().forEach(c -> checks.put(c.check().id(), c.outcome().name().toLowerCase(java.util.Locale.ROOT)));
            });
            if (!run.problem().isEmpty()) {
                entry.put("problem", run.problem());
            }
        }
    }

    /** One line per server and client, then the verdict; what the command prints. */
    public static List<String> summary(Result result) {
        List<String> lines = new ArrayList<>();
        for (Subject subject : result.subjects()) {
            Map<Judgement, Integer> counts = counts(result, subject.side(), subject.sdk());
            int scored = result.requirements().scored(subject.side()).size();
            StringBuilder line = new StringBuilder(String.format("%-18s %d scored: %d pass", subject.side().label() + " " + subject.sdk(),
                    scored, counts.getOrDefault(Judgement.PASS, 0)));
            line.append(", ").append(counts.getOrDefault(Judgement.EXPECTED_FAILURE, 0)).append(" expected failure(s)");
            int failed = counts.getOrDefault(Judgement.FAIL, 0) + counts.getOrDefault(Judgement.NOW_PASSES, 0);
            line.append(", ").append(failed).append(" unexpected");
            if (counts.getOrDefault(Judgement.NOT_SERVED, 0) > 0) {
                line.append(", ").append(counts.get(Judgement.NOT_SERVED)).append(" not served by the driver");
            }
            line.append(String.format(" (%.1f s)", subject.wallMillis() / 1000.0));
            lines.add(line.toString());
            if (!subject.note().isEmpty()) {
                lines.add("                   " + subject.note());
            }
        }
        for (ConformanceRun.StrictRun run : result.strict()) {
            lines.add(String.format("%-18s %s", "strict " + run.sdk(), run.report().map(r -> r.summary()
                    + (r.failed() ? ": " + checks(r, StrictOutcome.FAIL) : "")
                    + (r.count(StrictOutcome.DEPARTS) > 0 ? "; departs: " + checks(r, StrictOutcome.DEPARTS) : ""))
                    .orElse("did not run: " + run.problem())));
        }
        for (Row row : result.rows()) {
            if (row.judgement().failsTheRun()) {
                lines.add("  " + row.side().label() + " " + row.sdk() + " " + row.scenario() + ": " + row.judgement().label()
                        + (row.outcome().failures().isEmpty() ? "" : " — " + row.outcome().failures().get(0)));
            }
        }
        lines.add("conformance " + (result.ok() ? "every scored scenario passes or is an expected failure of its SDK"
                + (result.strict().isEmpty() ? "" : "; every strict check holds" + departures(result))
                : "unexpected results (above); see CONFORMANCE.md"));
        return lines;
    }

    private static String checks(StrictReport report, StrictOutcome outcome) {
        return String.join(", ", report.checks().stream().filter(c -> c.outcome() == outcome).map(c -> c.check().id()).toList());
    }

    /** {@code  (2 departures from a SHOULD, reported above)}, or nothing. */
    private static String departures(Result result) {
        long departing = result.strict().stream().flatMap(run -> run.report().stream())
                .mapToLong(report -> report.count(StrictOutcome.DEPARTS)).sum();
        return departing == 0 ? "" : " (" + departing + " departure" + (departing == 1 ? "" : "s") + " from a SHOULD, reported above)";
    }

    /** The transport rules of 2026-07-28, one row each, one column per server: the table docs/conformance.md keeps. */
    private static void transportTable(StringBuilder md, Result result) {
        List<ConformanceRun.StrictRun> runs = result.strict().stream().filter(run -> run.report().isPresent()).toList();
        if (runs.isEmpty()) {
            return;
        }
        md.append("### The transport rules of 2026-07-28\n\n| check | level | section of streamable-http.mdx |");
        runs.forEach(run -> md.append(' ').append(run.sdk()).append(" |"));
        md.append("\n|---|---|---|");
        runs.forEach(run -> md.append("---|"));
        md.append('\n');
        for (StrictCheckId check : StrictCheckId.values()) {
            if (check.level() == StrictCheckId.Level.LAB) {
                continue;
            }
            md.append("| `").append(check.id()).append("` | ").append(check.level()).append(" | ").append(check.section().title()).append(" |");
            runs.forEach(run -> md.append(' ').append(run.report().get().result(check).outcome().word()).append(" |"));
            md.append('\n');
        }
        md.append('\n');
    }

    static String markdown(Result result) {
        StringBuilder md = new StringBuilder();
        md.append("# Conformance: the official MCP suite on the lab's servers and SDK clients\n\n");
        md.append("Suite `@modelcontextprotocol/conformance@").append(OfficialSuite.VERSION).append("`, requirements `")
                .append(result.requirements().revision()).append("`. Verdict: **")
                .append(result.ok() ? "as expected" : "unexpected results").append("**.\n\n");
        for (Side side : Side.values()) {
            List<String> sdks = sdks(result, side);
            if (sdks.isEmpty()) {
                continue;
            }
            md.append("## ").append(side == Side.SERVER ? "Servers (conformance profile, Streamable HTTP)" : "Clients (the lab's drivers)")
                    .append("\n\n| scenario |");
            sdks.forEach(sdk -> md.append(' ').append(sdk).append(" |"));
            md.append("\n|---|");
            sdks.forEach(sdk -> md.append("---|"));
            md.append('\n');
            for (String scenario : result.requirements().scored(side)) {
                md.append("| `").append(scenario).append("` |");
                for (String sdk : sdks) {
                    md.append(' ').append(cell(result, side, sdk, scenario)).append(" |");
                }
                md.append('\n');
            }
            md.append('\n');
        }
        if (!result.strict().isEmpty()) {
            md.append("## The lab's strict MRTR checks on each server's profile\n\n");
            for (ConformanceRun.StrictRun run : result.strict()) {
                md.append("- ").append(run.sdk()).append(": ").append(run.report().map(r -> r.summary() + " (strict-" + run.sdk()
                        + "/strict.json)").orElse("did not run: " + run.problem())).append('\n');
            }
            md.append('\n');
            transportTable(md, result);
        }
        List<Row> expected = result.rows().stream().filter(r -> r.expected().isPresent()).toList();
        md.append("## Expected failures\n\n");
        if (expected.isEmpty()) {
            md.append("None.\n\n");
        }
        for (Row row : expected) {
            ExpectedFailures.Entry e = row.expected().get();
            md.append("- ").append(row.side().label()).append(' ').append(row.sdk()).append(" `").append(row.scenario()).append("` (")
                    .append(row.judgement().label()).append("): ").append(e.reason()).append(" SDK: `").append(e.sdkLocation())
                    .append("`. Finding: ").append(e.finding()).append('\n');
        }
        if (!result.unscored().isEmpty()) {
            md.append("\n## Run but not scored by the suite\n\n");
            for (Unscored other : result.unscored()) {
                md.append("- ").append(other.side().label()).append(' ').append(other.sdk()).append(" `").append(other.scenario())
                        .append("` (").append(other.why()).append("): ").append(other.outcome().verdict().label()).append('\n');
            }
        }
        return md.toString();
    }

    static String html(Result result) {
        StringBuilder html = new StringBuilder();
        html.append("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Conformance</title>\n<style>")
                .append("body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}td,th{border:1px solid #ccc;")
                .append("padding:.2em .6em}td.pass{background:#e6f4e6}td.fail{background:#f8d7d7}td.expected{background:#fff3cd}")
                .append("td.none{color:#777}</style></head><body>\n<h1>Conformance</h1>\n<p>Suite <code>@modelcontextprotocol/conformance@")
                .append(OfficialSuite.VERSION).append("</code>, requirements <code>").append(escape(result.requirements().revision()))
                .append("</code>: ").append(result.ok() ? "as expected" : "<strong>unexpected results</strong>").append(".</p>\n");
        for (Side side : Side.values()) {
            List<String> sdks = sdks(result, side);
            if (sdks.isEmpty()) {
                continue;
            }
            html.append("<section id=\"conformance-").append(side.label()).append("\"><h2>")
                    .append(side == Side.SERVER ? "Servers" : "Clients").append("</h2>\n<table><tr><th>scenario</th>");
            sdks.forEach(sdk -> html.append("<th>").append(escape(sdk)).append("</th>"));
            html.append("</tr>\n");
            for (String scenario : result.requirements().scored(side)) {
                html.append("<tr><td><code>").append(escape(scenario)).append("</code></td>");
                for (String sdk : sdks) {
                    Row row = row(result, side, sdk, scenario);
                    String css = row == null ? "none" : switch (row.judgement()) {
                        case PASS -> "pass";
                        case EXPECTED_FAILURE -> "expected";
                        case NOT_SERVED -> "none";
                        case FAIL, NOW_PASSES -> "fail";
                    };
                    html.append("<td class=\"").append(css).append("\">").append(escape(cell(result, side, sdk, scenario))).append("</td>");
                }
                html.append("</tr>\n");
            }
            html.append("</table></section>\n");
        }
        html.append("</body></html>\n");
        return html.toString();
    }

    private static String cell(Result result, Side side, String sdk, String scenario) {
        Row row = row(result, side, sdk, scenario);
        if (row == null) {
            return "–";
        }
        String counts = row.outcome().verdict() == Verdict.NOT_RUN ? "" : " (" + row.outcome().passed() + "/"
                + (row.outcome().passed() + row.outcome().failed()) + ")";
        return row.judgement().label() + counts;
    }

    private static Row row(Result result, Side side, String sdk, String scenario) {
        return result.rows().stream().filter(r -> r.side() == side && r.sdk().equals(sdk) && r.scenario().equals(scenario))
                .findFirst().orElse(null);
    }

    private static List<String> sdks(Result result, Side side) {
        Set<String> sdks = new LinkedHashSet<>();
        result.subjects().stream().filter(s -> s.side() == side).forEach(s -> sdks.add(s.sdk()));
        return List.copyOf(sdks);
    }

    private static Map<Judgement, Integer> counts(Result result, Side side, String sdk) {
        Map<Judgement, Integer> counts = new LinkedHashMap<>();
        for (Row row : result.rows()) {
            if (row.side() == side && row.sdk().equals(sdk)) {
                counts.merge(row.judgement(), 1, Integer::sum);
            }
        }
        return counts;
    }

    private static String key(Judgement judgement) {
        return judgement.name().toLowerCase(java.util.Locale.ROOT);
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
