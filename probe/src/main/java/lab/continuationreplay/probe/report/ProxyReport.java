package lab.continuationreplay.probe.report;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import lab.continuationreplay.history.html.HtmlPage;
import lab.continuationreplay.vectors.ExactJson;

/**
 * {@code report.html} of a {@code lab proxy} folder, from the checker's {@code proxy.json}: what was relayed, the
 * loss, what the client did after it, and every frame in order with what the proxy did with it. A report, not
 * evidence: {@code lab verify} does not read it.
 */
public final class ProxyReport {
    private ProxyReport() {}

    public static void write(Path out) throws IOException {
        JsonNode plan = ExactJson.parse(Files.readString(out.resolve("plan.json"), StandardCharsets.UTF_8));
        JsonNode proxy = ExactJson.parse(Files.readString(out.resolve("proxy.json"), StandardCharsets.UTF_8));
        Files.writeString(out.resolve("report.html"), html(plan, proxy), StandardCharsets.UTF_8);
    }

    static String html(JsonNode plan, JsonNode proxy) {
        StringBuilder h = HtmlPage.start("Continuation Replay Lab: proxy", "lab proxy: what did the client do after a lost reply?");
        JsonNode upstream = plan.path("upstream");
        String server = upstream.has("url") ? upstream.path("url").asText() : String.join(" ",
                ExactJson.mapper().convertValue(upstream.path("command"), String[].class));
        h.append("<p class=\"facts\">").append(HtmlPage.escape(upstream.path("transport").asText() + " server " + server))
                .append("<br>lose ").append(HtmlPage.escape(plan.path("lose").asText())).append(", the reply completing call ")
                .append(plan.path("nth").asInt()).append("; sessions ").append(proxy.path("sessions").asInt())
                .append(", tool calls completed ").append(proxy.path("completed_calls").asInt()).append("</p>\n");
        JsonNode client = proxy.path("client");
        String css = switch (client.path("outcome").asText()) {
            case "recovered" -> "yes";
            case "different-result" -> "no";
            default -> "expected";
        };
        h.append("<p class=\"").append(css).append("\">").append(HtmlPage.escape(proxy.path("summary").asText())).append("</p>\n");
        h.append("<table class=\"fit\"><tr><th style=\"width:6rem\">client did</th><th style=\"width:7rem\">after</th>"
                + "<th style=\"width:9rem\">cancelled after</th><th style=\"width:9rem\">outcome</th><th>detail</th></tr>\n<tr><td>")
                .append(HtmlPage.escape(client.path("action").asText())).append("</td><td>")
                .append(client.path("after_ms").isNumber() ? HtmlPage.duration(client.path("after_ms").asLong()) : "")
                .append("</td><td>").append(client.path("cancelled_after_ms").isNumber()
                        ? HtmlPage.duration(client.path("cancelled_after_ms").asLong()) : "not cancelled")
                .append("</td><td>").append(HtmlPage.escape(client.path("outcome").asText()))
                .append("</td><td><code>").append(HtmlPage.escape(client.path("outcome_detail").asText())).append("</code></td></tr>\n</table>\n");
        h.append("<details><summary>").append(proxy.path("timeline").size()).append(" frames in order</summary>\n")
                .append("<table class=\"fit\"><tr><th style=\"width:6rem\">time</th><th style=\"width:4rem\">session</th>"
                        + "<th style=\"width:5rem\">from</th><th>frame</th><th style=\"width:9rem\">proxy</th></tr>\n");
        for (JsonNode row : proxy.path("timeline")) {
            boolean lost = !row.path("action").asText().equals("forwarded");
            h.append("<tr><td>").append(HtmlPage.duration(row.path("t_ms").asLong())).append("</td><td>")
                    .append(HtmlPage.escape(row.path("session").asText())).append("</td><td>")
                    .append(HtmlPage.escape(row.path("from").asText())).append("</td><td>")
                    .append(HtmlPage.escape(row.path("frame").asText())).append("</td><td").append(lost ? " class=\"no\"" : "")
                    .append(">").append(HtmlPage.escape(row.path("action").asText())).append("</td></tr>\n");
        }
        return h.append("</table></details>\n</body></html>\n").toString();
    }
}
