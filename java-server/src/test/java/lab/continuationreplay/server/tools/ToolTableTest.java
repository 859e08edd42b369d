package lab.continuationreplay.server.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.modern.server.feature.McpSyncTool;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import lab.continuationreplay.vectors.ExactJson;
import lab.continuationreplay.vectors.RuleTable;
import org.junit.jupiter.api.Test;

/** The servers' tools come from vectors/rules/tools.json, whole, and from nothing else. */
class ToolTableTest {
    private static final McpJsonMapper MAPPER = new JacksonMcpJsonMapper(new ObjectMapper());
    private static final RuleTable TABLE = RuleTable.load("tools.json");

    private static List<McpSyncTool> guarded(ToolTable table) {
        return new GuardedTools(null, null, Optional.empty(), CallContext.fixed("alice"), MAPPER).tools(table);
    }

    private static List<McpSyncTool> unguarded(ToolTable table) {
        return new UnguardedTools(null, null, CallContext.fixed("alice"), 0, Optional.empty(), MAPPER).tools(table);
    }

    /** What tools/list carries for these tools, as the SDK writes them. */
    private static JsonNode listed(List<McpSyncTool> tools) throws Exception {
        ArrayNode out = JsonNodeFactory.instance.arrayNode();
        for (McpSyncTool tool : tools) {
            out.add(ExactJson.parse(MAPPER.writeValueAsString(tool.definition())));
        }
        return out;
    }

    private static ObjectNode changed(Consumer<ObjectNode> change) {
        ObjectNode copy = TABLE.root().deepCopy();
        change.accept(copy);
        return copy;
    }

    @Test
    void theJarsCopyIsTheRepositorysTable() throws Exception {
        try (InputStream in = ToolTable.class.getResourceAsStream(ToolTable.RESOURCE)) {
            assertEquals(Files.readString(TABLE.file()), new String(in.readAllBytes(), StandardCharsets.UTF_8),
                    "target/classes holds a stale tools.json: build java-server again");
        }
    }

    @Test
    void bothServersListExactlyTheTablesTools() throws Exception {
        assertEquals(TABLE.member("guarded"), listed(new GuardedTools(null, null, Optional.empty(), CallContext.fixed("alice"),
                MAPPER).tools()));
        assertEquals(TABLE.member("unguarded"), listed(new UnguardedTools(null, null, CallContext.fixed("alice"), 0,
                Optional.empty(), MAPPER).tools()));
    }

    @Test
    void aChangedTableChangesWhatTheServersList() throws Exception {
        ObjectNode root = changed(table -> {
            ObjectNode create = (ObjectNode) table.withArray("guarded").get(0);
            create.put("description", "changed");
            ((ObjectNode) create.with("inputSchema").with("properties")).putObject("extra").put("type", "string");
            create.remove("outputSchema");
            ((ObjectNode) table.withArray("unguarded").get(0)).put("description", "changed control");
        });
        JsonNode guarded = listed(guarded(ToolTable.of(root)));
        assertEquals(root.get("guarded"), guarded);
        assertEquals("changed", guarded.get(0).path("description").textValue());
        assertTrue(guarded.get(0).path("outputSchema").isMissingNode(), guarded.toString());
        assertEquals(root.get("unguarded"), listed(unguarded(ToolTable.of(root))));
    }

    @Test
    void aTableThatIsNotTheServedToolsIsRefused() {
        List<Consumer<ObjectNode>> changes = List.of(
                table -> ((ObjectNode) table.withArray("guarded").get(1)).put("name", "get_status"),
                table -> table.withArray("guarded").add(table.withArray("guarded").get(0).deepCopy()),
                table -> table.withArray("guarded").remove(1),
                table -> ((ObjectNode) table.withArray("guarded").get(0)).putObject("annotations").put("readOnlyHint", false),
                table -> ((ObjectNode) table.withArray("guarded").get(0)).remove("description"),
                table -> ((ObjectNode) table.withArray("guarded").get(0)).put("inputSchema", "{}"),
                table -> table.remove("guarded"));
        for (Consumer<ObjectNode> change : changes) {
            ObjectNode root = changed(change);
            assertThrows(IllegalStateException.class, () -> guarded(ToolTable.of(root)), root.toString());
        }
        IllegalStateException named = assertThrows(IllegalStateException.class,
                () -> guarded(ToolTable.of(changed(table -> ((ObjectNode) table.withArray("guarded").get(1)).put("name", "x")))));
        assertTrue(named.getMessage().contains("serves [") && named.getMessage().contains("x"), named.getMessage());
        assertThrows(IllegalStateException.class, () -> ToolTable.of(changed(table -> table.put("format", "tool-table/2"))));
    }
}
