package lab.continuationreplay.bridge;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.sql.SQLException;
import lab.continuationreplay.store.guard.GuardedIssueArguments;
import lab.continuationreplay.store.guard.GuardedIssueResult;
import lab.continuationreplay.store.guard.InputResponses;
import lab.continuationreplay.store.guard.InvalidApplicationRequest;
import lab.continuationreplay.store.guard.IssueGuard;
import lab.continuationreplay.store.ledger.IssueLedger;
import lab.continuationreplay.store.ledger.OperationRejected;

/**
 * Answers one request line through {@link IssueGuard}, the single place the guard rules live. Every failure becomes a
 * reply: a request can never take the bridge down, only a lab fault can.
 */
final class BridgeService {
    private final IssueGuard guard;
    private final IssueLedger ledger;

    /** {@code ledger} is the one {@code guard} writes to; the unguarded {@code create} writes there without it. */
    BridgeService(IssueGuard guard, IssueLedger ledger) {
        this.guard = guard;
        this.ledger = ledger;
    }

    ObjectNode handle(byte[] line) {
        try {
            BridgeRequest request = RequestReader.read(line);
            if (request instanceof BridgeRequest.Apply apply) {
                return BridgeReply.ok(apply(apply).toJson());
            }
            if (request instanceof BridgeRequest.Create create) {
                return BridgeReply.ok(create(create));
            }
            return BridgeReply.ok(guard.status(((BridgeRequest.Status) request).operationId()).toJson());
        } catch (OperationRejected e) {
            return BridgeReply.error(e.wireCode(), e.getMessage());
        } catch (IllegalArgumentException e) {
            return BridgeReply.invalid(e.getMessage());
        } catch (SQLException e) {
            return BridgeReply.error(BridgeReply.STORAGE_FAILURE, firstLine(e.getMessage()));
        } catch (RuntimeException e) {
            return BridgeReply.error(BridgeReply.INTERNAL_ERROR, e.getClass().getSimpleName());
        }
    }

    private GuardedIssueResult apply(BridgeRequest.Apply apply) throws SQLException {
        GuardedIssueArguments arguments = GuardedIssueArguments.of(apply.operationId(), apply.title(), apply.mode());
        requireOneBody(apply.body(), apply.responses());
        return guard.apply(arguments, apply.state(), apply.responses());
    }

    private ObjectNode create(BridgeRequest.Create create) throws SQLException {
        if (create.title().isEmpty()) {
            throw new InvalidApplicationRequest("title is required");
        }
        requireOneBody(create.body(), create.responses());
        long issueId = ledger.createIssue(create.title(), create.body());
        ObjectNode result = JsonNodeFactory.instance.objectNode();
        result.put("issueId", issueId);
        result.put("result", "created " + issueId);
        return result;
    }

    // The fixture sends the body twice (plain, and inside the normalised responses); they must be one body.
    private static void requireOneBody(String body, ObjectNode responses) {
        if (!InputResponses.acceptedBody(responses).equals(body)) {
            throw new InvalidApplicationRequest("body does not match the accepted body input response");
        }
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "storage failure";
        }
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }
}
