package lab.continuationreplay.store.guard;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.security.SecureRandom;
import java.sql.SQLException;
import lab.continuationreplay.store.OperationIdentity;
import lab.continuationreplay.store.ledger.ApplyRequest;
import lab.continuationreplay.store.ledger.ApplyResult;
import lab.continuationreplay.store.ledger.FaultHook;
import lab.continuationreplay.store.ledger.IssueLedger;
import lab.continuationreplay.store.ledger.PartialSteps;
import lab.continuationreplay.store.readback.OperationStatus;
import lab.continuationreplay.store.readback.ReadBack;
import lab.continuationreplay.vectors.LogicalRequest;
import lab.continuationreplay.vectors.RequestFingerprint;

/**
 * The one entry point both servers use (Java in-process, TypeScript through the bridge), so every guard rule exists
 * once: continuation-state validation, input-response normalisation, the fingerprint of seed spec §2.10, apply-once
 * and the authoritative status read-back.
 */
public final class IssueGuard {
    public static final String TOOL_ID = "create_guarded_issue";
    public static final String TOOL_VERSION = "1";

    private final GuardConfig config;
    private final IssueLedger ledger;
    private final FaultHook faultHook;
    private final RequestFingerprint fingerprint;
    private final SecureRandom random = new SecureRandom();

    public IssueGuard(GuardConfig config, IssueLedger ledger, FaultHook faultHook) {
        if (!config.backendId().equals(ledger.backendId())) {
            throw new IllegalArgumentException("guard backend '" + config.backendId() + "' is not the ledger's '" + ledger.backendId() + "'");
        }
        this.config = config;
        this.ledger = ledger;
        this.faultHook = faultHook;
        this.fingerprint = new RequestFingerprint(config.fingerprintKey());
    }

    public GuardConfig config() {
        return config;
    }

    /**
     * Which round a call is: false for the first (no input responses), true for a continuation. A requestState
     * without responses, or responses without a requestState (a stripped state, case 11), is refused.
     */
    public static boolean isContinuation(boolean requestStatePresent, boolean inputResponsesPresent) {
        if (!inputResponsesPresent) {
            if (requestStatePresent) {
                throw new InvalidApplicationRequest("requestState without input responses");
            }
            return false;
        }
        if (!requestStatePresent) {
            throw new InvalidApplicationRequest("unsupported continuation: input responses require requestState");
        }
        return true;
    }

    /** First round: a fresh state for the server to seal into {@code requestState}. */
    public ContinuationState mint(GuardedIssueArguments arguments) {
        if (!config.canMint()) {
            throw new IllegalStateException("this guard has no TTLs and cannot mint a continuation state");
        }
        return ContinuationState.mint(arguments.operationId(), config.nowEpoch(), config.authorityTtlSeconds(),
                config.retentionTtlSeconds(), random);
    }

    /**
     * Continuation: validates the verified state and the responses, then applies once. Throws
     * {@link InvalidApplicationRequest} before any effect, or an {@code OperationRejected} from the ledger.
     */
    public GuardedIssueResult apply(GuardedIssueArguments arguments, JsonNode verifiedState, JsonNode inputResponses)
            throws SQLException {
        ContinuationState state = ContinuationState.parse(verifiedState, arguments.operationId(), config.nowEpoch());
        String body = InputResponses.acceptedBody(inputResponses);
        String digest = fingerprint(arguments, state, body);
        OperationIdentity identity = new OperationIdentity(arguments.operationId(), config.principal(), config.backendId());
        ApplyRequest request = ApplyRequest.at(identity, digest, arguments.title(), body, state.deadlines(),
                config.nowEpoch());
        ApplyResult applied = arguments.mode() == GuardedIssueArguments.Mode.PARTIAL
                ? ledger.applyPartialIssueOnce(request, PartialSteps.injectedFailures(), faultHook)
                : ledger.applyIssueOnce(request, faultHook);
        return new GuardedIssueResult(arguments.operationId(), applied.effectId(), applied.result(), applied.replayed(),
                applied.state());
    }

    /** The fingerprint of a continuation (seed spec §2.10) under the configured principal. */
    public String fingerprint(GuardedIssueArguments arguments, ContinuationState state, String body) {
        try {
            return fingerprint.digest(new LogicalRequest(config.principal(), TOOL_ID, TOOL_VERSION,
                    arguments.fingerprintArguments(), TextNode.valueOf(state.canonicalText()), InputResponses.normalised(body)));
        } catch (IllegalArgumentException e) {
            // e.g. an unpaired surrogate in the title or body: no canonical form, so no operation
            throw new InvalidApplicationRequest(e.getMessage(), e);
        }
    }

    /** {@code get_operation_status}: the authoritative, read-only observation for the configured principal. */
    public OperationStatus status(Object operationId) throws SQLException {
        if (!(operationId instanceof String id) || id.isEmpty()) {
            throw new InvalidApplicationRequest("operation_id is required");
        }
        if (id.length() > GuardedIssueArguments.MAX_OPERATION_ID_LENGTH) {
            throw new InvalidApplicationRequest("operation_id is longer than " + GuardedIssueArguments.MAX_OPERATION_ID_LENGTH + " characters");
        }
        OperationIdentity identity = new OperationIdentity(id, config.principal(), config.backendId());
        return OperationStatus.of(new ReadBack(ledger, config.principal(), config.nowEpoch()).reconcileOperation(identity));
    }
}
