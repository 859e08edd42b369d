package lab.continuationreplay.cases;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** The seed's arguments for a case's call: {@code {"operation_id":"case-NN","title":"guarded-NN","mode":mode}}. */
public final class CaseArguments {
    private CaseArguments() {}

    public static ObjectNode atomic(CaseKey id) {
        return of(id.operationId(), id.title(), "atomic");
    }

    public static ObjectNode partial(CaseId id) {
        return of(id.operationId(), id.title(), "partial");
    }

    public static ObjectNode of(String operationId, String title, String mode) {
        return JsonNodeFactory.instance.objectNode().put("operation_id", operationId).put("title", title).put("mode", mode);
    }
}
