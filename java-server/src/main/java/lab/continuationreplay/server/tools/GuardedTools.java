package lab.continuationreplay.server.tools;

import com.fasterxml.jackson.databind.JsonNode;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.modern.McpSchema;
import io.modelcontextprotocol.modern.server.McpRequestContext;
import io.modelcontextprotocol.modern.server.McpSyncResponse;
import io.modelcontextprotocol.modern.server.feature.McpSyncTool;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import lab.continuationreplay.server.state.InvalidRequestState;
import lab.continuationreplay.server.state.SealedRequestState;
import lab.continuationreplay.server.state.StateBinding;
import lab.continuationreplay.server.wire.WireErrors;
import lab.continuationreplay.store.guard.ContinuationState;
import lab.continuationreplay.store.guard.GuardedIssueArguments;
import lab.continuationreplay.store.guard.GuardedIssueResult;
import lab.continuationreplay.store.guard.IssueGuard;
import lab.continuationreplay.store.guard.LabFault;
import lab.continuationreplay.vectors.ExactJson;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code create_guarded_issue} and {@code get_operation_status} on the guard. The handler seals and opens the
 * state itself so the token binds the call's arguments; everything else is the guard's.
 */
public final class GuardedTools {
    public static final String CREATE = IssueGuard.TOOL_ID;
    public static final String STATUS = "get_operation_status";
    private static final Logger LOG = LoggerFactory.getLogger(GuardedTools.class);

    private final GuardOnDemand guard;
    private final SealedRequestState sealer;
    private final Optional<LabFault> fault;
    private final CallContext calls;
    private final McpJsonMapper mapper;

    public GuardedTools(GuardOnDemand guard, SealedRequestState sealer, Optional<LabFault> fault, CallContext calls,
            McpJsonMapper mapper) {
        this.guard = guard;
        this.sealer = sealer;
        this.fault = fault;
        this.calls = calls;
        this.mapper = mapper;
    }

    /** The tools as the shared table declares them (vectors/rules/tools.json, "guarded"), in its order. */
    public List<McpSyncTool> tools() {
        return tools(ToolTable.shipped());
    }

    List<McpSyncTool> tools(ToolTable table) {
        Map<String, McpSchema.Tool> declared = table.declarations(ToolTable.GUARDED, Set.of(CREATE, STATUS), mapper);
        Map<String, McpSyncTool> served = Map.of(
                CREATE, McpSyncTool.of(declared.get(CREATE), ToolResults.formElicitation(),
                        (context, request) -> guarded(() -> createIssue(context, request))),
                STATUS, McpSyncTool.of(declared.get(STATUS), (context, request) -> guarded(() -> status(context, request))));
        return declared.keySet().stream().map(served::get).toList();
    }

    private McpSyncResponse<McpSchema.CallToolOutcome> createIssue(McpRequestContext context, McpSchema.CallToolRequest request)
            throws Exception {
        Map<String, Object> arguments = request.arguments() == null ? Map.of() : request.arguments();
        GuardedIssueArguments call = GuardedIssueArguments.of(arguments.get("operation_id"), arguments.get("title"),
                arguments.get("mode"));
        IssueGuard guard = this.guard.get(calls.principal(context));
        long now = guard.config().nowEpoch();
        StateBinding binding = StateBinding.toolCall(CREATE, call.fingerprintArguments(), guard.config().principal());
        if (!IssueGuard.isContinuation(request.requestState() != null, request.inputResponses() != null)) {
            ContinuationState state = guard.mint(call);
            return ToolResults.askForBody(call.title(), sealer.seal(state.canonicalText(), binding, now));
        }
        String stateText;
        try {
            stateText = sealer.open(request.requestState(), binding, now);
        } catch (InvalidRequestState invalid) {
            LOG.info("requestState refused: {}", invalid.getMessage());
            throw WireErrors.invalidRequestState();
        }
        JsonNode responses = ExactJson.mapper().valueToTree(request.inputResponses());
        GuardedIssueResult result = guard.apply(call, ExactJson.parse(stateText), responses);
        fault.ifPresent(f -> f.afterCommit(result));
        if (!result.replayed()) {
            calls.afterFreshCommit(context);
        }
        return ToolResults.complete(result.toJson());
    }

    private McpSyncResponse<McpSchema.CallToolOutcome> status(McpRequestContext context, McpSchema.CallToolRequest request)
            throws Exception {
        // A single-round tool mints no state, so no requestState can be valid for it. It used to be ignored here and
        // the status answered, while the TypeScript fixture refuses it (found by lab faults, token-attacks).
        if (request.requestState() != null) {
            LOG.info("requestState refused: {} has no continuation", STATUS);
            throw WireErrors.invalidRequestState();
        }
        Map<String, Object> arguments = request.arguments() == null ? Map.of() : request.arguments();
        return ToolResults.complete(guard.get(calls.principal(context)).status(arguments.get("operation_id")).toJson());
    }

    @FunctionalInterface
    interface Call {
        McpSyncResponse<McpSchema.CallToolOutcome> run() throws Exception;
    }

    static McpSyncResponse<McpSchema.CallToolOutcome> guarded(Call call) {
        try {
            return call.run();
        } catch (Exception failure) {
            throw WireErrors.toWire(failure);
        }
    }
}
