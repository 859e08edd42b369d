package lab.continuationreplay.matrix.run;

import com.fasterxml.jackson.databind.node.ObjectNode;
import lab.continuationreplay.cases.CaseServer;
import lab.continuationreplay.core.client.ToolClient;
import lab.continuationreplay.core.wire.HttpExchanges;
import lab.continuationreplay.core.wire.TransportFailure;

/** A case script's server: the lab's one tool client over a real process. Replies stay in the transcript. */
public record ScriptedServer(ToolClient client) implements CaseServer {
    @Override
    public String name() {
        return client.name();
    }

    @Override
    public String roundOne(String tool, ObjectNode arguments) throws Exception {
        return client.roundOneOf(tool, arguments);
    }

    @Override
    public void firstRound(ObjectNode arguments) throws Exception {
        client.firstRound(arguments);
    }

    @Override
    public void commit(String tool, ObjectNode arguments, String state, String body) throws Exception {
        client.commit(tool, arguments, state, body);
    }

    @Override
    public void commitLosingReply(String tool, ObjectNode arguments, String state, String body) throws Exception {
        try {
            client.commit(tool, arguments, state, body);
        } catch (TransportFailure expected) {
            client.awaitExit();
            return;
        }
        throw new IllegalStateException(client.name() + ": the reply was expected to be lost");
    }

    @Override
    public void commitLosingConnection(String tool, ObjectNode arguments, String state, String body) throws Exception {
        try {
            client.commit(tool, arguments, state, body);
        } catch (HttpExchanges.NoResponse expected) {
            if (!client.isAlive()) {
                throw new IllegalStateException(client.name() + ": the server died instead of closing the connection");
            }
            return;
        }
        throw new IllegalStateException(client.name() + ": the connection was expected to close without a response");
    }

    @Override
    public void status(String operationId) throws Exception {
        client.status(operationId);
    }
}
