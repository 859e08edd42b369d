package lab.continuationreplay.cases;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * One running server, as a script drives it. Calls return nothing a script could judge by: replies are history,
 * read back by the checker from the transcript. Only the round-one {@code requestState} comes back, because the
 * script must send it on.
 */
public interface CaseServer {
    /** The guarded tool. */
    String CREATE = "create_guarded_issue";

    String name();

    /** Round one of {@code tool}: returns the {@code requestState} of its {@code input_required} answer. */
    String roundOne(String tool, ObjectNode arguments) throws Exception;

    default String roundOne(ObjectNode arguments) throws Exception {
        return roundOne(CREATE, arguments);
    }

    /** Round one, whatever it answers (a case that checks the answer is not a refusal). */
    void firstRound(ObjectNode arguments) throws Exception;

    /** A continuation: the {@code inputResponses} carry {@code body}; {@code state} null sends none. */
    void commit(String tool, ObjectNode arguments, String state, String body) throws Exception;

    default void commit(ObjectNode arguments, String state, String body) throws Exception {
        commit(CREATE, arguments, state, body);
    }

    /**
     * A continuation whose reply must be lost: the server (started with {@link ServerSetup.Fault#DROP_AFTER_COMMIT})
     * commits and halts. Returns once the process has exited; a reply that does arrive stops the script.
     */
    void commitLosingReply(String tool, ObjectNode arguments, String state, String body) throws Exception;

    default void commitLosingReply(ObjectNode arguments, String state, String body) throws Exception {
        commitLosingReply(CREATE, arguments, state, body);
    }

    /**
     * HTTP only: a continuation whose reply is lost while the server lives on (started with
     * {@link ServerSetup.Fault#CLOSE_AFTER_COMMIT}): the server commits and closes the connection without a response.
     * Returns once the exchange has ended so; a reply that does arrive, or a server that died, stops the script.
     */
    void commitLosingConnection(String tool, ObjectNode arguments, String state, String body) throws Exception;

    /** {@code get_operation_status} for {@code operationId}. */
    void status(String operationId) throws Exception;
}
