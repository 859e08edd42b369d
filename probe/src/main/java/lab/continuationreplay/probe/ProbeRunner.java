package lab.continuationreplay.probe;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import lab.continuationreplay.core.wire.WireEnvelope;

/**
 * Plays the probe's checks against one server and writes what happened ({@link ProbeHistory}); it judges nothing
 * but what it must to go on (is this round answered with {@code input_required}, did the observer count on p1). The
 * checker derives every verdict from the history alone.
 *
 * <p>Each check works on calls of its own, each with fresh values; the observer reads before and after each. Here
 * are the first call (p1, s1) and the checks both shapes share: p2a and s2 the final round's reply discarded, then the
 * same round again; p3 and s3 twenty first sends of it at once; p7 and s4 the server restarted in between; p8 and s5
 * a new call. {@link MultiRoundChecks} has the others of a multi-round tool, {@link SingleRoundChecks} those of a
 * single-round one; {@link Handshake} finds the protocol and the tool.
 */
public final class ProbeRunner {
    /** The checks on a multi-round tool, in the order they are reported (p7, which restarts the server, is played last). */
    public static final List<String> CHECKS = List.of("p1", "p2a", "p2b", "p3", "p4", "p5", "p6", "p7", "p8", "p9", "p10");
    /** The checks on a single-round tool, in the order they are reported (s4, which restarts the server, is played last). */
    public static final List<String> SINGLE_ROUND_CHECKS = List.of("s1", "s2", "s3", "s4", "s5", "s6", "s6b", "s7", "s8", "s9", "r1");
    /** The version whose servers announce a call's stream by a priming event and redeliver it on GET (r1). */
    static final String REDELIVERY_VERSION = "2025-11-25";
    /** The label of the first call's events: p1 or s1, whichever the call's shape makes it (the checker tells). */
    public static final String FIRST = "first";
    static final int RACE = 20;
    private static final int MAX_ROUNDS = 8;
    static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    final Handshake handshake = new Handshake(this);
    final ProbeOptions options;
    final ProbeHistory history;
    private final EffectObserver observer;
    private final InputAnswers answers;
    private final Restart restart;
    final java.util.function.Supplier<ProbeConnection> other;
    /** Starts the stdio server again under a new name (null over HTTP): a first request fixes a process's era. */
    final java.util.function.Function<String, ProbeConnection> again;
    ProbeConnection connection;
    /** Whether the server speaks a version before 2026-07-28: requests carry no _meta, a process starts with initialize. */
    boolean legacy;
    /** The version the server answered initialize with (null at 2026-07-28). */
    String version;
    private long nextId = 1;
    private int freshCount;
    /** Fresh values of this run differ from every other run's on the same server. */
    private final String runTag = randomTag();

    /** How p7 restarts the server: the probe kills and starts a stdio one; an HTTP one restarts by the user's command. */
    interface Restart {
        /** Restarts the server and returns the connection to use afterwards; null when it cannot be restarted. */
        ProbeConnection restart(ProbeConnection current);
    }

    /**
     * @param other opens a connection as another principal (p6), or answers null when the user gave none
     */
    private ProbeRunner(ProbeOptions options, ProbeHistory history, ProbeConnection connection, Restart restart,
            java.util.function.Supplier<ProbeConnection> other, java.util.function.Function<String, ProbeConnection> again) {
        this.options = options;
        this.history = history;
        this.observer = EffectObserver.of(options.observer());
        this.answers = new InputAnswers(options.answers());
        this.connection = connection;
        this.restart = restart;
        this.other = other;
        this.again = again;
        answering(connection);
    }

    /**
     * Plays every check and seals the history. Bad input ({@link ProbeInputException}) found before or during the
     * run stops it; what was recorded until then stays, sealed, for the user to read.
     *
     * @param environment variables the stdio server gets beyond this process's own (never written anywhere)
     */
    public static void run(ProbeOptions options, Map<String, String> environment) {
        ProbePlan.requireNewOrEmpty(options.out());
        ProbeClock clock = new ProbeClock();
        ProbeHistory history = new ProbeHistory(options.out(), clock);
        history.plan(ProbePlan.plan(options));
        try {
            Files.createDirectories(history.run());
        } catch (IOException e) {
            throw new ProbeInputException("--out " + options.out() + ": " + e.getMessage(), e);
        }
        ProbeTargets.Ways ways = ProbeTargets.open(options, environment, history, clock);
        ProbeRunner runner = new ProbeRunner(options, history, ways.connection(), ways.restart(), ways.other(), ways.again());
        String stopped = null;
        try {
            runner.play();
        } catch (ProbeInputException e) {
            stopped = e.getMessage();
            history.note("probe", "stopped", e.getMessage());
            throw e;
        } finally {
            runner.connection.close();
            history.seal(stopped);
        }
    }

    private void play() {
        handshake.negotiate();
        JsonNode tool = handshake.discover();
        if (options.key() != null && !tool.path("inputSchema").path("properties").has(options.key().argument())) {
            List<String> names = new ArrayList<>();
            tool.path("inputSchema").path("properties").fieldNames().forEachRemaining(names::add);
            throw new ProbeInputException("--key-arg " + options.key().argument() + " is not an argument of '" + options.tool()
                    + "' (its input schema has " + names + ")");
        }
        int rounds = first();
        if (rounds == 1) {
            history.note("setup", "shape", "single-round");
            new SingleRoundChecks(this).play(tool);
            return;
        }
        history.note("setup", "shape", "multi-round");
        MultiRoundChecks multi = new MultiRoundChecks(this);
        lostReply("p2a", rounds);
        multi.p2b(rounds);
        race("p3", rounds);
        multi.p4(rounds, tool);
        multi.p5(rounds);
        multi.p6(rounds);
        newCall("p8");
        multi.p9(rounds);
        multi.p10(rounds);
        restartThenRetry("p7", rounds);
    }

    ObjectNode cancelled(JsonNode id) {
        ObjectNode params = JSON.objectNode();
        params.set("requestId", id);
        params.put("reason", "lab probe gave up on the request (p2b)");
        params.set("_meta", meta());
        ObjectNode notification = JSON.objectNode();
        notification.put("jsonrpc", "2.0");
        notification.put("method", "notifications/cancelled");
        notification.set("params", params);
        return notification;
    }

    static void pause(java.time.Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * p7 and s4: the final round is answered and its reply discarded, the server is killed and started again (stdio), or
     * restarted by the user's command (HTTP), and the same round is sent to it.
     */
    void restartThenRetry(String check, int rounds) {
        observe(check, "before");
        List<Round> played = playCall(check, arguments(), true);
        observe(check, "committed");
        if (played.size() != rounds) {
            return;
        }
        ProbeConnection restarted = restart.restart(connection);
        if (restarted == null) {
            history.note(check, "not-applicable", "no way to restart the server: give --restart-cmd with --url");
            return;
        }
        connection = restarted;
        answering(connection);
        history.note(check, "restarted", "the server was restarted after the final round committed");
        if (legacy) {
            // a new process has no session and no era yet: over HTTP too, the old session died with the server
            handshake.awaitInitialized(check);
        }
        awaitReady(check);
        history.exchange(check, "retry", connection.send(frame("tools/call", played.get(played.size() - 1).params())), false);
        observe(check, "after");
    }

    /** Asks tools/list until the server answers (30 s at most): a restarted server may take a while to listen. */
    void awaitReady(String check) {
        long deadline = System.nanoTime() + java.time.Duration.ofSeconds(30).toNanos();
        while (true) {
            Exchange listed = connection.send(frame("tools/list", JSON.objectNode()));
            history.exchange(check, "ready", listed, false);
            if (listed.reply() != null || System.nanoTime() > deadline) {
                return;
            }
            try {
                Thread.sleep(500);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Requests the server sends in the middle of a call (its input requests before 2026-07-28) get the probe's answers. */
    void answering(ProbeConnection started) {
        if (started instanceof StdioConnection stdio) {
            stdio.answerServerRequests(answers::serverRequest);
        } else if (started instanceof HttpConnection http) {
            http.answerServerRequests(answers::serverRequest);
        }
    }

    /**
     * The first call, p1 or s1: one complete call commits exactly one effect, or the observer cannot be trusted and the
     * probe stops. Answers the number of rounds it took. A single-round tool whose arguments hold no fresh value may
     * find its effect there already (every call is the same one), so the observer is held to it only with one.
     */
    private int first() {
        EffectObserver.Reading before = observe(FIRST, "before");
        if (before.error() != null) {
            throw new ProbeInputException("the observer fails: " + before.error());
        }
        List<Round> rounds = playCall(FIRST, arguments(), false);
        Round last = rounds.get(rounds.size() - 1);
        Reply reply = Reply.of(last.exchange());
        if (reply != Reply.COMPLETE) {
            throw new ProbeInputException(refusal(rounds.size() == 1 ? "the tool refuses its arguments (--args)"
                    : "the call's final round was not answered with a result", last.exchange()));
        }
        EffectObserver.Reading after = observe(FIRST, "after");
        if (after.error() != null) {
            throw new ProbeInputException("the observer fails: " + after.error());
        }
        boolean heldToOne = rounds.size() > 1 || FreshValues.used(options.arguments());
        if (heldToOne && before.value() != null && after.value() - before.value() != 1) {
            throw new ProbeInputException("the observer does not count: it read " + before.value() + " before and "
                    + after.value() + " after one complete call; no check can pass on it (fix --effects-cmd, --effects-tool"
                    + " or --effects-sqlite)");
        }
        return rounds.size();
    }

    /** p2a and s2: the final round's reply is discarded, then the same round is sent again (with a new JSON-RPC id). */
    void lostReply(String check, int rounds) {
        observe(check, "before");
        List<Round> played = playCall(check, arguments(), true);
        if (played.size() == rounds) {
            Round last = played.get(played.size() - 1);
            history.exchange(check, "retry", connection.send(frame("tools/call", last.params())), false);
        }
        observe(check, "after");
    }

    /** p3 and s3: twenty first sends of one call's final round (a single-round tool's only one), all at once. */
    void race(String check, int rounds) {
        observe(check, "before");
        ObjectNode last = playToFinal(check, arguments(), rounds);
        if (last != null) {
            List<ObjectNode> frames = new ArrayList<>();
            for (int i = 0; i < RACE; i++) {
                frames.add(frame("tools/call", last));
            }
            connection.sendTogether(frames).forEach(e -> history.exchange(check, "race", e, false));
        }
        observe(check, "after");
    }

    /** p8 and s5: a new call with fresh values and the same arguments: an intentional second write. */
    void newCall(String check) {
        observe(check, "before");
        playCall(check, arguments(), false);
        observe(check, "after");
    }

    /** One request's params and its exchange. */
    record Round(ObjectNode params, Exchange exchange) {}

    /** How the probe reads a reply to go on (the checker reads it again for itself). */
    enum Reply {
        INPUT_REQUIRED, COMPLETE, REFUSED, NONE;

        static Reply of(Exchange exchange) {
            if (exchange.reply() == null) {
                return NONE;
            }
            JsonNode result = exchange.reply().path("result");
            if (exchange.reply().has("error") || result.path("isError").asBoolean(false)) {
                return REFUSED;
            }
            return "input_required".equals(result.path("resultType").asText()) ? INPUT_REQUIRED : COMPLETE;
        }
    }

    /**
     * Plays a call round by round until a round is not answered with {@code input_required}; with {@code discardLast}
     * the last reply is recorded as discarded (the probe acts as if it never came).
     */
    List<Round> playCall(String check, JsonNode arguments, boolean discardLast) {
        List<Round> rounds = new ArrayList<>();
        ObjectNode params = WireEnvelope.toolCall(options.tool(), arguments, null, null);
        for (int round = 1; round <= MAX_ROUNDS; round++) {
            Exchange exchange = connection.send(frame("tools/call", params));
            rounds.add(new Round(params, exchange));
            Reply reply = Reply.of(exchange);
            boolean last = reply != Reply.INPUT_REQUIRED;
            history.exchange(check, "round-" + round, exchange, last && discardLast && reply == Reply.COMPLETE);
            if (last) {
                return rounds;
            }
            params = next(arguments, exchange.reply().path("result"));
        }
        return rounds;
    }

    /** Plays the rounds before the final one; returns the final round's params, or null if the call went otherwise. */
    ObjectNode playToFinal(String check, JsonNode arguments, int rounds) {
        ObjectNode params = WireEnvelope.toolCall(options.tool(), arguments, null, null);
        for (int round = 1; round < rounds; round++) {
            Exchange exchange = connection.send(frame("tools/call", params));
            history.exchange(check, "round-" + round, exchange, false);
            if (Reply.of(exchange) != Reply.INPUT_REQUIRED) {
                return null;
            }
            params = next(arguments, exchange.reply().path("result"));
        }
        return params;
    }

    /** The next round's params: the same name and arguments, the answers to its input requests and its state. */
    private ObjectNode next(JsonNode arguments, JsonNode inputRequired) {
        ObjectNode responses = answers.responses(inputRequired.path("inputRequests"));
        JsonNode state = inputRequired.path("requestState");
        return WireEnvelope.toolCall(options.tool(), arguments, responses.isEmpty() && inputRequired.path("inputRequests").isMissingNode()
                ? null : responses, state.isTextual() ? state.textValue() : null);
    }

    EffectObserver.Reading observe(String check, String phase) {
        if (options.observer() instanceof ProbeOptions.Observer.ToolCount counting) {
            // the count is the server's own answer on the same connection: the exchange is evidence, read again by the checker
            Exchange asked = connection.send(frame("tools/call", WireEnvelope.toolCall(counting.tool(), JSON.objectNode(), null, null)));
            int seq = history.exchange(check, "observer", asked, false);
            Long count = lab.continuationreplay.history.ToolCount.of(asked.reply());
            EffectObserver.Reading reading = new EffectObserver.Reading(count, count != null ? null : "--effects-tool "
                    + counting.tool() + " answered no count: " + refusal("", asked).substring(2), null);
            history.observeByTool(check, phase, reading, seq);
            return reading;
        }
        EffectObserver.Reading reading = observer.read(history.run(), "observed/" + check + "-" + phase + ".sqlite3");
        history.observe(check, phase, reading);
        return reading;
    }

    ObjectNode frame(String method, ObjectNode params) {
        ObjectNode withMeta = params.deepCopy();
        if (!legacy) {
            withMeta.set("_meta", meta());
        }
        ObjectNode frame = JSON.objectNode();
        frame.put("jsonrpc", "2.0");
        frame.put("id", nextId++);
        frame.put("method", method);
        frame.set("params", withMeta);
        return frame;
    }

    /** The envelope: 2026-07-28, and every kind of input request the probe can answer declared. */
    static ObjectNode meta() {
        ObjectNode meta = JSON.objectNode();
        meta.put("io.modelcontextprotocol/protocolVersion", WireEnvelope.PROTOCOL_VERSION);
        meta.putObject("io.modelcontextprotocol/clientInfo").put("name", "lab-probe").put("version", "0.1.0");
        ObjectNode capabilities = meta.putObject("io.modelcontextprotocol/clientCapabilities");
        capabilities.putObject("elicitation").putObject("form");
        capabilities.putObject("sampling");
        capabilities.putObject("roots");
        return meta;
    }

    private static String randomTag() {
        byte[] bytes = new byte[4];
        new java.security.SecureRandom().nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    JsonNode arguments() {
        return FreshValues.apply(options.arguments(), fresh());
    }

    String fresh() {
        return "probe-" + runTag + "-" + (++freshCount);
    }

    /**
     * One string argument changed to another valid value (another enum value, or the same text with a suffix): the
     * first required one whose template holds no fresh value, else the first other one; null when there is none.
     */
    static JsonNode changedArguments(JsonNode arguments, JsonNode template, JsonNode schema) {
        List<String> candidates = new ArrayList<>();
        schema.path("required").forEach(r -> candidates.add(r.asText()));
        arguments.fieldNames().forEachRemaining(name -> {
            if (!candidates.contains(name)) {
                candidates.add(name);
            }
        });
        for (String name : candidates) {
            JsonNode value = arguments.path(name);
            JsonNode property = schema.path("properties").path(name);
            if (!value.isTextual() || FreshValues.used(template.path(name))) {
                continue;
            }
            ObjectNode changed = ((ObjectNode) arguments).deepCopy();
            JsonNode choices = property.path("enum");
            if (choices.isArray() && choices.size() > 1) {
                for (JsonNode choice : choices) {
                    if (!choice.equals(value)) {
                        changed.set(name, choice);
                        return changed;
                    }
                }
            } else if (!choices.isArray()) {
                changed.put(name, value.textValue() + "-changed");
                return changed;
            }
        }
        return null;
    }

    private static String refusal(String what, Exchange exchange) {
        if (exchange.reply() == null) {
            return what + ": " + exchange.failure();
        }
        JsonNode error = exchange.reply().path("error");
        if (!error.isMissingNode()) {
            return what + ": " + error.path("code").asInt() + " " + error.path("message").asText();
        }
        JsonNode text = exchange.reply().path("result").path("content").path(0).path("text");
        return what + ": " + (text.isTextual() ? text.textValue() : exchange.reply().path("result").toString());
    }

}
