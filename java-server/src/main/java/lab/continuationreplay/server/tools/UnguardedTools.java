package lab.continuationreplay.server.tools;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.modern.McpSchema;
import io.modelcontextprotocol.modern.server.McpRequestContext;
import io.modelcontextprotocol.modern.server.McpSyncResponse;
import io.modelcontextprotocol.modern.server.feature.McpSyncTool;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import lab.continuationreplay.server.state.InvalidRequestState;
import lab.continuationreplay.server.state.SealedRequestState;
import lab.continuationreplay.server.state.StateBinding;
import lab.continuationreplay.server.wire.WireErrors;
import lab.continuationreplay.store.guard.InvalidApplicationRequest;
import lab.continuationreplay.store.guard.InputResponses;
import lab.continuationreplay.store.guard.IssueGuard;
import lab.continuationreplay.store.guard.LabFault;
import lab.continuationreplay.store.ledger.IssueLedger;
import lab.continuationreplay.vectors.ExactJson;

/**
 * The control: {@code create_issue(title)} with the same two rounds and the same sealed state, but no ledger. Every
 * continuation that opens writes another issue, so an identical retry, a changed answer or a blind replay after a
 * crash each leave a duplicate. It witnesses the failure the guard prevents.
 */
public final class UnguardedTools {
    public static final String CREATE = "create_issue";

    private final IssueLedger ledger;
    private final SealedRequestState sealer;
    private final CallContext calls;
    private final long now;
    private final Optional<LabFault> fault;
    private final McpJsonMapper mapper;
    private final SecureRandom random = new SecureRandom();

    public UnguardedTools(IssueLedger ledger, SealedRequestState sealer, CallContext calls, long now,
            Optional<LabFault> fault, McpJsonMapper mapper) {
        this.ledger = ledger;
        this.sealer = sealer;
        this.calls = calls;
        this.now = now;
        this.fault = fault;
        this.mapper = mapper;
    }

    /** The control's tool as the shared table declares it (vectors/rules/tools.json, "unguarded"). */
    public List<McpSyncTool> tools() {
        return tools(ToolTable.shipped());
    }

    List<McpSyncTool> tools(ToolTable table) {
        McpSchema.Tool create = table.declarations(ToolTable.UNGUARDED, Set.of(CREATE), mapper).get(CREATE);
        return List.of(McpSyncTool.of(create, ToolResults.formElicitation(),
                (context, request) -> GuardedTools.guarded(() -> createIssue(context, request))));
    }

    private McpSyncResponse<McpSchema.CallToolOutcome> createIssue(McpRequestContext context, McpSchema.CallToolRequest request)
            throws Exception {
        Map<String, Object> arguments = request.arguments() == null ? Map.of() : request.arguments();
        if (!(arguments.get("title") instanceof String title) || title.isEmpty()) {
            throw new InvalidApplicationRequest("title is required");
        }
        ObjectNode boundArguments = JsonNodeFactory.instance.objectNode().put("title", title);
        StateBinding binding = StateBinding.toolCall(CREATE, boundArguments, calls.principal(context));
        if (!IssueGuard.isContinuation(request.requestState() != null, request.inputResponses() != null)) {
            byte[] nonce = new byte[16];
            random.nextBytes(nonce);
            String state = JsonNodeFactory.instance.objectNode().put("v", 1).put("nonce", HexFormat.of().formatHex(nonce)).toString();
            return ToolResults.askForBody(title, sealer.seal(state, binding, now));
        }
        try {
            sealer.open(request.requestState(), binding, now);
        } catch (InvalidRequestState invalid) {
            throw WireErrors.invalidRequestState();
        }
        String body = InputResponses.acceptedBody(ExactJson.mapper().valueToTree(request.inputResponses()));
        long issueId = ledger.createIssue(title, body);
        fault.filter(f -> f == LabFault.DROP_AFTER_COMMIT).ifPresent(f -> Runtime.getRuntime().halt(f.exitStatus()));
        calls.afterFreshCommit(context);
        ObjectNode result = JsonNodeFactory.instance.objectNode();
        result.put("issueId", issueId);
        result.put("result", "created " + issueId);
        return ToolResults.complete(result);
    }
}
