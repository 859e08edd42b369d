package lab.continuationreplay.clients;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;

/** The driver against the guarded Java server: its guard refuses with a JSON-RPC error, which the SDK throws. */
class JavaServerDriverIT extends GuardedServerFlows {
    @Override
    GuardedServer server() {
        return GuardedServer.JAVA;
    }

    @Override
    void assertConflictRefusal(JsonNode record) {
        assertEquals("threw", record.get("outcome").asText(), record::toString);
        assertEquals("McpException", record.at("/threw/type").asText());
        assertEquals(-32602, record.at("/threw/code").asInt());
        assertTrue(record.at("/threw/message").asText().contains("operation_conflict"), record::toString);
    }
}
