package lab.continuationreplay.matrix.report;

import lab.continuationreplay.history.html.HtmlPage;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import lab.continuationreplay.history.Format;
import lab.continuationreplay.history.Layout;
import lab.continuationreplay.vectors.ExactJson;

/**
 * {@code clients.json}, {@code CLIENTS.md} and {@code report.html} of a {@code lab clients} folder, from the checker's
 * records of each cell: per case a client x server table of what the application saw and how each client showed it.
 * A case where the cells saw different things is marked: those are the interop findings.
 */
public final class ClientsReport {
    private static final String PASS = "pass";
    private static final String EXPECTED_FAILURE = "expected_failure";

    private ClientsReport() {}

    /** A status as a reader reads it: {@code expected failure (docs/findings/...)} for one listed with its finding. */
    static String statusText(JsonNode side) {
        String status = side.path("status").asText();
        if (EXPECTED_FAILURE.equals(status)) {
            return "expected failure (" + side.path("finding").asText() + ")";
        }
        return "now_passes".equals(status) ? "passes, but is listed as an expected failure (" + side.path("finding").asText() + ")" : status;
    }

    /** @param recordsByCell the checker's records per cell folder name, in cell order */
    public static ObjectNode write(Path out, Map<String, List<JsonNode>> recordsByCell) throws IOException {
        ObjectNode clients = Format.CLIENTS.document();
        clients.set("cells", ExactJson.mapper().valueToTree(new ArrayList<>(recordsByCell.keySet())));
        ObjectNode transports = clients.putObject("transports");
        recordsByCell.keySet().forEach(cell -> transports.put(cell, transportOf(cell)));
        Map<String, Map<String, JsonNode>> byCase = new LinkedHashMap<>();
        recordsByCell.forEach((cell, records) -> records.forEach(r -> byCase.computeIfAbsent(r.path("case_id").asText(),
                id -> new LinkedHashMap<>()).put(cell, r)));
        ArrayNode cases = clients.putArray("cases");
        boolean allPass = true;
        boolean asExpected = true;
        for (Map.Entry<String, Map<String, JsonNode>> entry : byCase.entrySet()) {
            ObjectNode row = cases.addObject();
            row.put("case_id", entry.getKey());
            Set<String> seen = new LinkedHashSet<>();
            Set<String> shown = new LinkedHashSet<>();
            ObjectNode cells = row.putObject("cells");
            for (Map.Entry<String, JsonNode> cell : entry.getValue().entrySet()) {
                JsonNode r = cell.getValue();
                row.put("name", r.path("name").asText());
                ObjectNode side = cells.putObject(cell.getKey());
                side.put("transport", transportOf(cell.getKey()));
                side.put("status", r.path("status").asText());
                side.set("seen", texts(r, "seen"));
                side.set("shown", texts(r, "shown"));
                side.put("effects", r.path("effects").asInt());
                side.set("recovered", r.path("recovered"));
                side.set("server_process_starts", r.path("server_process_starts"));
                side.set("violations", r.path("violations"));
                if (r.has("expected_failure")) {
                    side.put("finding", r.path("expected_failure").path("finding").asText());
                }
                seen.add(texts(r, "seen").toString());
                shown.add(texts(r, "shown").toString());
                allPass &= PASS.equals(r.path("status").asText());
                asExpected &= PASS.equals(r.path("status").asText()) || EXPECTED_FAILURE.equals(r.path("status").asText());
            }
            row.put("same_seen", seen.size() == 1);
            row.put("same_shown", shown.size() == 1);
        }
        clients.put("all_pass", allPass);
        // every cell passed or failed exactly as an expected failure lists: what lab clients exits 0 on
        clients.put("all_as_expected", asExpected);
        Files.writeString(out.resolve(Layout.CLIENTS_FILE), ExactJson.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(clients) + "\n");
        Files.writeString(out.resolve("CLIENTS.md"), markdown(clients));
        Files.writeString(out.resolve("report.html"), html(clients));
        return clients;
    }

    /** {@code http} for a cell folder ending in {@code -http}, else {@code stdio}: the folder name is what the runner wrote. */
    static String transportOf(String cell) {
        return cell.endsWith(Layout.HTTP_SUFFIX) ? "http" : "stdio";
    }

    /**
     * {@code member} of every step in step order; the inner steps of a parallel step are sorted among themselves,
     * since which one finished first is a race, not a difference between cells.
     */
    private static ArrayNode texts(JsonNode record, String member) {
        Map<String, List<String>> groups = new LinkedHashMap<>();
        for (JsonNode step : record.path("steps")) {
            String id = step.path("step").asText();
            String group = id.contains(".") ? id.substring(0, id.indexOf('.')) : id;
            groups.computeIfAbsent(group, g -> new ArrayList<>()).add(step.path(member).asText());
        }
        ArrayNode texts = JsonNodeFactory.instance.arrayNode();
        groups.values().forEach(g -> g.stream().sorted().forEach(texts::add));
        return texts;
    }

    static String markdown(JsonNode clients) {
        StringBuilder md = new StringBuilder("# The official clients against the guarded servers\n\n");
        md.append("Each cell is one client driving one server, over stdio, or over Streamable HTTP where the cell's name ends")
                .append(" in `-http`. A step reads `seen (shown)`: what")
                .append(" the application saw, in words every cell shares, and how this client showed it. A case whose")
                .append(" cells saw different things is marked **differs**.\n\n");
        List<String> cells = new ArrayList<>();
        clients.path("cells").forEach(c -> cells.add(c.asText()));
        for (JsonNode row : clients.path("cases")) {
            md.append("## ").append(row.path("case_id").asText()).append(' ').append(row.path("name").asText())
                    .append(row.path("same_seen").asBoolean() ? "" : " (**differs**)").append("\n\n");
            md.append("| cell | transport | status | steps | effects | recovered | server process starts |\n|---|---|---|---|---|---|---|\n");
            for (String cell : cells) {
                JsonNode side = row.path("cells").path(cell);
                if (side.isMissingNode()) {
                    continue;
                }
                List<String> steps = new ArrayList<>();
                for (int i = 0; i < side.path("shown").size(); i++) {
                    String seen = i < side.path("seen").size() ? side.path("seen").get(i).asText() : "";
                    steps.add(seen + " (" + side.path("shown").get(i).asText() + ")");
                }
                md.append("| ").append(cell).append(" | ").append(transportOf(cell)).append(" | ").append(statusText(side)).append(" | ")
                        .append(String.join("; ", steps).replace("|", "\\|")).append(" | ").append(side.path("effects").asInt())
                        .append(" | ").append(side.path("recovered").isNull() ? "" : side.path("recovered").asText())
                        .append(" | ").append(starts(side.path("server_process_starts"))).append(" |\n");
            }
            md.append('\n');
        }
        return md.toString();
    }

    private static final Pattern CELL = Pattern.compile(Pattern.quote(Layout.CLIENT_PREFIX) + "(.+)-server-(.+?)("
            + Pattern.quote(Layout.HTTP_SUFFIX) + ")?");

    /**
     * The clients ({@code group} 1) or the servers (2) that the folder's cells name, in the SDK columns' order (which
     * is also the client axis's); a label the lab does not know yet comes after them.
     */
    static List<String> sides(JsonNode clients, int group) {
        Set<String> found = new LinkedHashSet<>();
        clients.path("cells").forEach(c -> {
            Matcher m = CELL.matcher(c.asText());
            if (m.matches()) {
                found.add(m.group(group));
            }
        });
        List<String> ordered = new ArrayList<>(Layout.SDK_COLUMNS.stream().filter(found::contains).toList());
        found.stream().filter(label -> !ordered.contains(label)).forEach(ordered::add);
        return ordered;
    }

    /** {@code crash 2, restart 2}: how often each named server command was started (a client may start one twice). */
    private static String starts(JsonNode starts) {
        List<String> parts = new ArrayList<>();
        starts.fields().forEachRemaining(e -> parts.add(e.getKey() + " " + e.getValue().asInt()));
        return String.join(", ", parts);
    }

    static String html(JsonNode clients) {
        StringBuilder h = HtmlPage.start("Continuation Replay Lab: the official clients", "The official clients against the guarded servers");
        h.append("""
                <p>Rows are clients, columns are servers and the transport that reached them; each cell lists, per call,
                what the application saw and how the client showed it. Cases where the cells saw different things are
                highlighted.</p>
                """);
        List<String> transports = new ArrayList<>();
        clients.path("transports").forEach(t -> {
            if (!transports.contains(t.asText())) {
                transports.add(t.asText());
            }
        });
        List<String> clientLabels = sides(clients, 1);
        List<String> servers = sides(clients, 2);
        for (JsonNode row : clients.path("cases")) {
            boolean same = row.path("same_seen").asBoolean();
            h.append("<h2>").append(HtmlPage.escape(row.path("case_id").asText() + " " + row.path("name").asText()))
                    .append(same ? "" : " (differs)").append("</h2>\n<table class=\"").append(same ? "" : "differs")
                    .append("\"><tr><th>client \\ server</th>");
            for (String transport : transports) {
                for (String server : servers) {
                    h.append("<th>").append(server).append(" (").append(transport).append(")</th>");
                }
            }
            h.append("</tr>\n");
            for (String client : clientLabels) {
                h.append("<tr><th>").append(client).append("</th>");
                List<String> columns = new ArrayList<>();
                for (String transport : transports) {
                    for (String server : servers) {
                        columns.add(Layout.clientCell(client, server) + (transport.equals("http") ? Layout.HTTP_SUFFIX : ""));
                    }
                }
                for (String name : columns) {
                    appendCell(h, row.path("cells").path(name));
                }
                h.append("</tr>\n");
            }
            h.append("</table>\n");
        }
        return h.append("</body></html>\n").toString();
    }

    /** One client x server cell: per call what was seen and how the client showed it, then effects, starts and status. */
    private static void appendCell(StringBuilder h, JsonNode side) {
        if (side.isMissingNode()) {
            h.append("<td></td>");
            return;
        }
        StringBuilder cell = new StringBuilder();
        for (int i = 0; i < side.path("shown").size(); i++) {
            String seen = i < side.path("seen").size() ? side.path("seen").get(i).asText() : "";
            cell.append(seen).append(" (").append(side.path("shown").get(i).asText()).append(")\n");
        }
        cell.append("effects ").append(side.path("effects").asInt()).append("; server starts: ")
                .append(starts(side.path("server_process_starts")));
        String status = side.path("status").asText();
        if (!PASS.equals(status)) {
            cell.append('\n').append(statusText(side));
        }
        h.append("<td class=\"").append(PASS.equals(status) ? "yes" : EXPECTED_FAILURE.equals(status) ? "expected" : "no")
                .append("\"><code>")
                .append(HtmlPage.escape(cell.toString())).append("</code></td>");
    }
}
