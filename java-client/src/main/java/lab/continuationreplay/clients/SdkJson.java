package lab.continuationreplay.clients;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.NullNode;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * The bridge between the SDK's objects and the records' JSON. SDK objects are written by the SDK's own mapper, so a
 * record shows them as they are on the wire, not as this driver's Jackson settings would render the Java records.
 */
final class SdkJson {
    static final ObjectMapper JSON = new ObjectMapper();
    private static final McpJsonMapper SDK = McpJsonDefaults.getMapper();

    private SdkJson() {}

    static JsonNode tree(Object sdkObject) {
        if (sdkObject == null) {
            return NullNode.instance;
        }
        try {
            return JSON.readTree(SDK.writeValueAsString(sdkObject));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> map(JsonNode object) {
        return JSON.convertValue(object, Map.class);
    }
}
