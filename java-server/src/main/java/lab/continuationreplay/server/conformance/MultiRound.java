package lab.continuationreplay.server.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.modelcontextprotocol.modern.McpException;
import io.modelcontextprotocol.modern.McpSchema;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import lab.continuationreplay.server.state.InvalidRequestState;
import lab.continuationreplay.server.wire.WireErrors;
import lab.continuationreplay.vectors.ExactJson;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a multi-round fixture for one request: opens the state (or starts), reads the answers the current round asked
 * for, and either asks again (what is still missing, or the next round) under a freshly sealed state, or completes.
 * The state carries the plan and the answers so far, so a later round depends on nothing the client could change.
 */
final class MultiRound {
    private static final Logger LOG = LoggerFactory.getLogger(MultiRound.class);

    /** What a fixture request comes to. */
    sealed interface Step permits Step.Needs, Step.Done {
        /** More input is needed: these requests, to be answered together with this sealed state. */
        record Needs(Map<String, McpSchema.InputRequest> requests, String requestState) implements Step {}

        /** The call is complete with this text. */
        record Done(String text) implements Step {}
    }

    /** The plan and the answers so far, which is all a fixture's sealed state holds. */
    private record Progress(int round, List<List<Ask>> plan, Map<Ask, String> answers) {
        JsonNode toJson() {
            ObjectNode state = JsonNodeFactory.instance.objectNode();
            state.put("round", round);
            ArrayNode rounds = state.putArray("plan");
            plan.forEach(asks -> {
                ArrayNode names = rounds.addArray();
                asks.forEach(ask -> names.add(ask.name()));
            });
            ObjectNode given = state.putObject("answers");
            answers.forEach((ask, answer) -> given.put(ask.name(), answer));
            return state;
        }

        static Progress fromJson(JsonNode state) throws InvalidRequestState {
            if (!state.path("round").isInt() || !state.path("plan").isArray() || !state.path("answers").isObject()) {
                throw new InvalidRequestState("sealed state has an unexpected shape");
            }
            List<List<Ask>> plan = new ArrayList<>();
            for (JsonNode round : state.get("plan")) {
                List<Ask> asks = new ArrayList<>();
                for (JsonNode name : round) {
                    asks.add(Ask.named(name.asText()).orElseThrow(() -> new InvalidRequestState("unknown ask")));
                }
                plan.add(asks);
            }
            Map<Ask, String> answers = new EnumMap<>(Ask.class);
            for (Iterator<Map.Entry<String, JsonNode>> it = state.get("answers").fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> answer = it.next();
                answers.put(Ask.named(answer.getKey()).orElseThrow(() -> new InvalidRequestState("unknown ask")),
                        answer.getValue().asText());
            }
            int round = state.get("round").intValue();
            if (round < 0 || round >= plan.size()) {
                throw new InvalidRequestState("sealed state names no round of its plan");
            }
            return new Progress(round, plan, answers);
        }
    }

    private final FixtureStates states;

    MultiRound(FixtureStates states) {
        this.states = states;
    }

    /**
     * Every refused {@code requestState} (and a continuation without one where a state is required) is the server's
     * one frozen error; answers of the wrong shape are {@code -32602} with the key named.
     */
    Step run(MrtrFixture fixture, FixtureCall call, McpSchema.ClientCapabilities capabilities,
            Map<String, Object> inputResponses, String requestState) {
        Progress progress;
        if (requestState != null) {
            try {
                progress = Progress.fromJson(states.open(call, requestState));
            } catch (InvalidRequestState invalid) {
                LOG.info("fixture {}: requestState refused: {}", fixture.fixtureName, invalid.getMessage());
                throw WireErrors.invalidRequestState();
            }
        } else if (inputResponses != null && fixture.continuation == MrtrFixture.Continuation.STATE_REQUIRED) {
            LOG.info("fixture {}: requestState refused: a continuation without one", fixture.fixtureName);
            throw WireErrors.invalidRequestState();
        } else {
            List<List<Ask>> plan = fixture.plan(capabilities);
            if (plan.isEmpty()) {
                return new Step.Done("The client declared no capability this fixture could ask with.");
            }
            progress = new Progress(0, plan, new EnumMap<>(Ask.class));
        }

        Map<Ask, String> answers = new EnumMap<>(Ask.class);
        answers.putAll(progress.answers());
        List<Ask> missing = new ArrayList<>();
        JsonNode responses = inputResponses == null ? null : ExactJson.mapper().valueToTree(inputResponses);
        for (Ask ask : progress.plan().get(progress.round())) {
            // Keys the round did not ask for are ignored, as the protocol asks of a receiver.
            JsonNode response = responses == null ? null : responses.get(ask.key);
            if (response == null || response.isNull()) {
                missing.add(ask);
                continue;
            }
            Optional<String> answer;
            try {
                answer = ask.read(response);
            } catch (Ask.Malformed malformed) {
                throw new McpException(WireErrors.INVALID_PARAMS, "Invalid inputResponses: " + malformed.getMessage());
            }
            if (answer.isEmpty()) {
                return new Step.Done("The user declined to answer '" + ask.key + "'.");
            }
            answers.put(ask, answer.get());
        }
        if (!missing.isEmpty()) {
            return needs(call, missing, new Progress(progress.round(), progress.plan(), answers));
        }
        int next = progress.round() + 1;
        if (next < progress.plan().size()) {
            return needs(call, progress.plan().get(next), new Progress(next, progress.plan(), answers));
        }
        return new Step.Done(fixture.complete(answers));
    }

    private Step needs(FixtureCall call, List<Ask> asks, Progress progress) {
        Map<String, McpSchema.InputRequest> requests = new LinkedHashMap<>();
        asks.forEach(ask -> requests.put(ask.key, ask.request()));
        return new Step.Needs(requests, states.seal(call, progress.toJson()));
    }
}
