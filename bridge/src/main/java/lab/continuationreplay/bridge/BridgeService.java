package lab.continuationreplay.bridge;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.sql.SQLException;
import lab.continuationreplay.store.guard.GuardedIssueArguments;
import lab.continuationreplay.store.guard.GuardedIssueResult;
import lab.continuationreplay.store.guard.InputResponses;
import lab.continuationreplay.store.guard.InvalidApplicationRequest;
import lab.continuationreplay.store.guard.IssueGuard;
import lab.continuationreplay.store.ledger.OperationRejected;

/**
 * Answers one request line through {@link IssueGuard}, the single place the guard rules live. Every failure becomes a
 * reply: a request can never take the bridge down, only a lab fault can.
 */
final class BridgeService {
    private final IssueGuard guard;

    BridgeService(IssueGuard guard) {
        this.guard = guard;
    }

    ObjectNode handle(byte[] line) {
        try {
            BridgeRequest request = RequestReader.read(line);
            if (request instanceof BridgeRequest.Apply apply) {
                return BridgeReply.ok(apply(apply).toJson());
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
        // The fixture sends the body twice (plain, and inside the normalised responses); they must be one body.
        if (!InputResponses.acceptedBody(apply.responses()).equals(apply.body())) {
            throw new InvalidApplicationRequest("body does not match the accepted body input response");
        }
        return guard.apply(arguments, apply.state(), apply.responses());
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "storage failure";
        }
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }
}
