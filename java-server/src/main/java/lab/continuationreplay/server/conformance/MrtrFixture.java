package lab.continuationreplay.server.conformance;

import io.modelcontextprotocol.modern.McpSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The multi-round fixtures the suite's {@code input-required-result-*} and {@code server-stateless} scenarios call:
 * each one's name, its rounds of input requests, and the text of its complete result. All of them run on
 * {@link MultiRound}, so all of them seal and check their state the same way.
 */
enum MrtrFixture {
    ELICITATION("test_input_required_result_elicitation", FixtureCall.Method.TOOLS_CALL, Continuation.ANSWERS_SUFFICE,
            caps -> rounds(List.of(Ask.USER_NAME)),
            answers -> "Hello, " + answers.get(Ask.USER_NAME) + "!"),
    SAMPLING("test_input_required_result_sampling", FixtureCall.Method.TOOLS_CALL, Continuation.STATE_REQUIRED,
            caps -> rounds(List.of(Ask.CAPITAL_QUESTION)),
            answers -> "The client's model answered: " + answers.get(Ask.CAPITAL_QUESTION)),
    LIST_ROOTS("test_input_required_result_list_roots", FixtureCall.Method.TOOLS_CALL, Continuation.STATE_REQUIRED,
            caps -> rounds(List.of(Ask.CLIENT_ROOTS)),
            answers -> "The client's roots: " + answers.get(Ask.CLIENT_ROOTS)),
    REQUEST_STATE("test_input_required_result_request_state", FixtureCall.Method.TOOLS_CALL,
            Continuation.STATE_REQUIRED,
            caps -> rounds(List.of(Ask.CONFIRM)),
            answers -> "state-ok: the sealed requestState opened; confirmed=" + answers.get(Ask.CONFIRM)),
    MULTIPLE_INPUTS("test_input_required_result_multiple_inputs", FixtureCall.Method.TOOLS_CALL,
            Continuation.STATE_REQUIRED,
            caps -> rounds(List.of(Ask.USER_NAME, Ask.GREETING, Ask.CLIENT_ROOTS)),
            answers -> "name=" + answers.get(Ask.USER_NAME) + "; greeting=" + answers.get(Ask.GREETING)
                    + "; roots=" + answers.get(Ask.CLIENT_ROOTS)),
    MULTI_ROUND("test_input_required_result_multi_round", FixtureCall.Method.TOOLS_CALL, Continuation.STATE_REQUIRED,
            caps -> rounds(List.of(Ask.STEP_1), List.of(Ask.STEP_2)),
            answers -> answers.get(Ask.STEP_1) + "'s favorite color is " + answers.get(Ask.STEP_2)),
    TAMPERED_STATE("test_input_required_result_tampered_state", FixtureCall.Method.TOOLS_CALL,
            Continuation.STATE_REQUIRED,
            caps -> rounds(List.of(Ask.CONFIRM)),
            answers -> "state-ok: the sealed requestState opened; confirmed=" + answers.get(Ask.CONFIRM)),
    CAPABILITIES("test_input_required_result_capabilities", FixtureCall.Method.TOOLS_CALL, Continuation.STATE_REQUIRED,
            MrtrFixture::declaredOnly,
            answers -> "answered: " + answers),
    STREAMING_ELICITATION("test_streaming_elicitation", FixtureCall.Method.TOOLS_CALL, Continuation.STATE_REQUIRED,
            caps -> rounds(List.of(Ask.USER_NAME)),
            answers -> "Hello, " + answers.get(Ask.USER_NAME) + "!"),
    PROMPT("test_input_required_result_prompt", FixtureCall.Method.PROMPTS_GET, Continuation.STATE_REQUIRED,
            caps -> rounds(List.of(Ask.USER_CONTEXT)),
            answers -> "Write with this context in mind: " + answers.get(Ask.USER_CONTEXT));

    /** Whether answers without a {@code requestState} may continue a call. */
    enum Continuation {
        /** A continuation must carry the state this server sealed; without one it is refused like a forged one. */
        STATE_REQUIRED,
        /**
         * The answers alone may complete the call, as if round one had just been asked. Only the basic elicitation
         * fixture works so: the suite's {@code ignore-extra-params} and {@code missing-input-response} scenarios call
         * it with answers and no state, and expect a complete result and a repeated request respectively. It has no
         * effect and its result depends on nothing but the answer; a state it is given is still checked in full.
         */
        ANSWERS_SUFFICE
    }

    final String fixtureName;
    final FixtureCall.Method method;
    final Continuation continuation;
    private final Function<McpSchema.ClientCapabilities, List<List<Ask>>> plan;
    private final Function<Map<Ask, String>, String> complete;

    MrtrFixture(String fixtureName, FixtureCall.Method method, Continuation continuation,
            Function<McpSchema.ClientCapabilities, List<List<Ask>>> plan, Function<Map<Ask, String>, String> complete) {
        this.fixtureName = fixtureName;
        this.method = method;
        this.continuation = continuation;
        this.plan = plan;
        this.complete = complete;
    }

    /** The rounds of input requests for a client with these capabilities; empty when it can answer none of them. */
    List<List<Ask>> plan(McpSchema.ClientCapabilities capabilities) {
        return plan.apply(capabilities == null ? McpSchema.ClientCapabilities.NONE : capabilities);
    }

    String complete(Map<Ask, String> answers) {
        return complete.apply(answers);
    }

    @SafeVarargs
    private static List<List<Ask>> rounds(List<Ask>... rounds) {
        return List.of(rounds);
    }

    /** Asks only what the client declared it can answer (scenario {@code capability-check}). */
    private static List<List<Ask>> declaredOnly(McpSchema.ClientCapabilities capabilities) {
        List<Ask> asks = new ArrayList<>();
        if (capabilities.elicitation() != null) {
            asks.add(Ask.USER_NAME);
        }
        if (capabilities.sampling() != null) {
            asks.add(Ask.CAPITAL_QUESTION);
        }
        if (capabilities.roots() != null) {
            asks.add(Ask.CLIENT_ROOTS);
        }
        return asks.isEmpty() ? List.of() : List.of(asks);
    }
}
