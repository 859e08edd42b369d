package lab.continuationreplay.probe.report;

import lab.continuationreplay.history.html.HtmlPage;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import lab.continuationreplay.vectors.ExactJson;

/**
 * {@code report.html} of a {@code lab probe} folder, from the checker's {@code probe.json} and the history's events:
 * what was probed, one row per check with its verdict and reason, and under each the exchanges and readings that
 * decided it. A report, not evidence: {@code lab verify} does not read it.
 */
public final class ProbeReport {
    private ProbeReport() {}

    public static void write(Path out) throws IOException {
        JsonNode plan = ExactJson.parse(Files.readString(out.resolve("plan.json"), StandardCharsets.UTF_8));
        JsonNode verdicts = ExactJson.parse(Files.readString(out.resolve("probe.json"), StandardCharsets.UTF_8));
        List<JsonNode> events = new ArrayList<>();
        for (String line : Files.readAllLines(out.resolve("run").resolve("events.jsonl"), StandardCharsets.UTF_8)) {
            events.add(ExactJson.parse(line));
        }
        Files.writeString(out.resolve("report.html"), html(plan, verdicts, events), StandardCharsets.UTF_8);
    }

    static String html(JsonNode plan, JsonNode verdicts, List<JsonNode> events) {
        StringBuilder h = HtmlPage.start("Continuation Replay Lab: probe", "lab probe: does a retry after a lost reply commit twice?");
        JsonNode target = plan.path("target");
        h.append("<p class=\"facts\">").append(HtmlPage.escape(target.path("kind").asText() + " "
                + (target.has("url") ? target.path("url").asText() : target.path("command").asText())))
                .append("<br>tool <code>").append(HtmlPage.escape(plan.path("tool").asText())).append("</code> with <code>")
                .append(HtmlPage.escape(plan.path("arguments").toString())).append("</code><br>observer ")
                .append(HtmlPage.escape(plan.path("observer").path("kind").asText() + " " + observer(plan.path("observer"))))
                .append("<br>protocol ").append(HtmlPage.escape(verdicts.path("protocol").asText("unknown")))
                .append("</p>\n");
        h.append("<table class=\"fit\"><tr><th style=\"width:4rem\">check</th><th style=\"width:9rem\">verdict</th><th>reason</th></tr>\n");
        for (JsonNode check : verdicts.path("checks")) {
            String verdict = check.path("verdict").asText() + (check.path("kind").isTextual() ? " " + check.path("kind").asText() : "");
            String css = switch (check.path("verdict").asText()) {
                case "pass" -> "yes";
                case "fail" -> "no";
                case "weak" -> "differs";
                default -> "expected";
            };
            h.append("<tr><td>").append(HtmlPage.escape(check.path("id").asText())).append("</td><td class=\"").append(css)
                    .append("\">").append(HtmlPage.escape(verdict)).append("</td><td>").append(HtmlPage.escape(check.path("reason").asText()))
                    .append(details(check, events)).append("</td></tr>\n");
        }
        h.append("</table>\n");
        if (!verdicts.path("problems").isEmpty()) {
            h.append("<p class=\"no\">The history is unfit to judge: ").append(HtmlPage.escape(verdicts.path("problems").toString()))
                    .append("</p>\n");
        }
        return h.append("</body></html>\n").toString();
    }

    private static String observer(JsonNode observer) {
        return switch (observer.path("kind").asText()) {
            case "sqlite" -> observer.path("file").asText() + " " + observer.path("table").asText();
            case "command" -> observer.path("command").asText();
            case "tool" -> observer.path("tool").asText();
            default -> "(effects not counted)";
        };
    }

    /** The events of one check, folded: each exchange (role, time, what was sent, what came back) and each reading. */
    private static String details(JsonNode check, List<JsonNode> events) {
        StringBuilder d = new StringBuilder("<details><summary>").append(check.path("events").size()).append(" events</summary><code>");
        for (JsonNode seq : check.path("events")) {
            JsonNode event = events.stream().filter(e -> e.path("seq").asInt() == seq.asInt()).findFirst().orElse(null);
            if (event == null) {
                continue;
            }
            String line = switch (event.path("kind").asText()) {
                case "exchange" -> event.path("role").asText() + (event.path("discarded").asBoolean() ? " (reply discarded)" : "")
                        + ", " + event.path("elapsed_ms").asLong() + " ms: " + sent(event.path("request")) + " -> " + got(event);
                case "observe" -> "observer " + event.path("phase").asText() + ": "
                        + (event.path("value").isNull() ? event.path("error").asText("none") : event.path("value").asText());
                default -> event.path("kind").asText() + ": " + event.path("detail").asText();
            };
            d.append(HtmlPage.escape(line)).append('\n');
        }
        return d.append("</code></details>").toString();
    }

    private static String sent(JsonNode request) {
        JsonNode params = request.path("params");
        String state = params.path("requestState").isTextual() ? ", state of " + params.path("requestState").asText().length()
                + " characters" : "";
        String answers = params.has("inputResponses") ? ", answers " + abbreviated(params.path("inputResponses").toString()) : "";
        return request.path("method").asText() + " " + params.path("name").asText("") + state + answers;
    }

    private static String got(JsonNode event) {
        JsonNode reply = event.path("reply");
        if (!reply.isObject()) {
            return event.path("failure").asText("no reply");
        }
        if (reply.has("error")) {
            return "error " + reply.path("error").path("code").asInt() + " " + reply.path("error").path("message").asText();
        }
        JsonNode result = reply.path("result");
        return result.path("resultType").asText("result") + (result.path("isError").asBoolean(false) ? " (isError)" : "") + " "
                + abbreviated(result.has("structuredContent") ? result.path("structuredContent").toString()
                        : result.path("content").toString());
    }

    private static String abbreviated(String text) {
        return text.length() > 200 ? text.substring(0, 200) + "..." : text;
    }
}
