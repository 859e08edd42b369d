package lab.continuationreplay.matrix.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import lab.continuationreplay.vectors.ExactJson;
import org.junit.jupiter.api.Test;

/** The clients' report.html has a row per client and a column per server that the folder's cells name, four each at most. */
class ClientsReportTest {
    private static JsonNode folder(String... cells) throws Exception {
        StringBuilder names = new StringBuilder();
        for (String cell : cells) {
            names.append(names.isEmpty() ? "" : ",").append('"').append(cell).append('"');
        }
        return ExactJson.parse("{\"cells\":[" + names + "],\"transports\":{},\"cases\":[]}");
    }

    @Test
    void theAxesAreTheCellsSidesInTheSdksOrder() throws Exception {
        JsonNode clients = folder("client-go-server-python", "client-java-server-go", "client-python-server-java-http",
                "client-typescript-server-typescript");
        assertEquals(List.of("java", "typescript", "python", "go"), ClientsReport.sides(clients, 1));
        assertEquals(List.of("java", "typescript", "python", "go"), ClientsReport.sides(clients, 2));
        assertEquals(List.of("java"), ClientsReport.sides(folder("client-java-server-java-http"), 2), "the -http suffix is no server");
        assertEquals(List.of("go", "rust"), ClientsReport.sides(folder("client-rust-server-go", "client-go-server-rust"), 1),
                "a label the lab does not know yet comes last, not lost");
    }

    @Test
    void aGoClientAgainstThePythonServerHasItsCell() throws Exception {
        JsonNode clients = ExactJson.parse("""
                {"cells":["client-go-server-python"],"transports":{"client-go-server-python":"stdio"},
                 "cases":[{"case_id":"03","name":"lost_reply_then_explicit_replay","same_seen":true,
                   "cells":{"client-go-server-python":{"transport":"stdio","status":"pass","seen":["lost"],
                     "shown":["threw *fmt.wrapError EOF"],"effects":1,"recovered":true,"server_process_starts":{"crash":1}}}}],
                 "transports_list":[]}
                """);
        ((com.fasterxml.jackson.databind.node.ObjectNode) clients).putArray("transports").add("stdio");
        String html = ClientsReport.html(clients);
        assertTrue(html.contains("<th>python (stdio)</th>"), html);
        assertTrue(html.contains("<tr><th>go</th>"), html);
        assertTrue(html.contains("threw *fmt.wrapError EOF"), html);
    }
}
