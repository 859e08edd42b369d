package lab.continuationreplay.clients;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;

/** The driver against the TypeScript fixture: its guard refuses with an isError result, which the SDK returns. */
class TypeScriptServerDriverIT extends GuardedServerFlows {
    @Override
    GuardedServer server() {
        return GuardedServer.TYPESCRIPT;
    }

    @Override
    void assertConflictRefusal(JsonNode record) {
        assertEquals("tool_error", record.get("outcome").asText(), record::toString);
        assertTrue(record.at("/result/isError").asBoolean(false));
        assertEquals("operation_conflict", record.at("/result/content/0/text").asText(), record::toString);
        assertTrue(record.get("threw").isNull());
    }
}
