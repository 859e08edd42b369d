package lab.continuationreplay.bridge;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;

/** Request lines as the TypeScript fixture writes them, for a continuation minted at the lab's clock. */
final class Requests {
    static final long NOW = 1_790_035_200L;
    static final String BACKEND = "sqlite:guarded-matrix";
    static final String FINGERPRINT_KEY_HEX = "8c0aed9f1ff0487480b140421d28d2e49f5a61b8f1837dab9304a6d126f7adba";
    static final String NONCE = "661eed17995cd1b77e6812a2fd567408";

    private Requests() {}

    static ObjectNode state(String operationId) {
        ObjectNode state = JsonNodeFactory.instance.objectNode();
        state.put("v", 1);
        state.put("operation_id", operationId);
        state.put("nonce", NONCE);
        state.put("issued_at", NOW);
        state.put("authority_expires_at", NOW + 300);
        state.put("replay_expires_at", NOW + 360);
        return state;
    }

    /** The normalised responses the fixture sends: the guard's own normal form. */
    static ObjectNode responses(String body) {
        return lab.continuationreplay.store.guard.InputResponses.normalised(body);
    }

    static ObjectNode apply(String operationId, String title, String mode, String body) {
        ObjectNode request = JsonNodeFactory.instance.objectNode();
        request.put("op", "apply");
        request.put("operation_id", operationId);
        request.put("title", title);
        request.put("mode", mode);
        request.put("body", body);
        request.set("state", state(operationId));
        request.set("responses", responses(body));
        return request;
    }

    /** The unguarded control's {@code create_issue} continuation, as a fixture's unguarded mode writes it. */
    static ObjectNode create(String title, String body) {
        ObjectNode request = JsonNodeFactory.instance.objectNode();
        request.put("op", "create");
        request.put("title", title);
        request.put("body", body);
        request.set("responses", responses(body));
        return request;
    }

    static ObjectNode status(String operationId) {
        ObjectNode request = JsonNodeFactory.instance.objectNode();
        request.put("op", "status");
        request.put("operation_id", operationId);
        return request;
    }

    static byte[] bytes(Object line) {
        return line.toString().getBytes(StandardCharsets.UTF_8);
    }
}
