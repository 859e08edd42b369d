package lab.continuationreplay.server.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.modelcontextprotocol.modern.JsonRpc;
import io.modelcontextprotocol.modern.server.McpTransportResponse;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FrozenStateErrorsTest {
    private static McpTransportResponse error(int code, String message, Object data) {
        return McpTransportResponse.error(JsonRpc.JSONRPCResponse.error(7,
                new JsonRpc.JSONRPCResponse.JSONRPCError(code, message, data)));
    }

    @Test
    void givesTheSdksOwnStateErrorsTheFrozenShape() {
        for (String sdkMessage : new String[] {"requestState must be a string", "Invalid or expired requestState"}) {
            McpTransportResponse.Error frozen = (McpTransportResponse.Error) FrozenStateErrors.freeze(error(-32602, sdkMessage, null));
            assertEquals(7, frozen.response().id());
            assertEquals(-32602, frozen.response().error().code());
            assertEquals("Invalid or expired requestState", frozen.response().error().message());
            assertEquals(Map.of("reason", "invalid_request_state"), frozen.response().error().data());
        }
    }

    @Test
    void leavesEveryOtherResponseAlone() {
        McpTransportResponse conflict = error(-32602, "operation_conflict", null);
        assertSame(conflict, FrozenStateErrors.freeze(conflict));
        McpTransportResponse alreadyFrozen = error(-32602, "Invalid or expired requestState", Map.of("reason", "invalid_request_state"));
        assertSame(alreadyFrozen, FrozenStateErrors.freeze(alreadyFrozen));
        McpTransportResponse result = McpTransportResponse.result(JsonRpc.JSONRPCResponse.result(1, Map.of()));
        assertSame(result, FrozenStateErrors.freeze(result));
    }
}
