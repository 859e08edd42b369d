package lab.continuationreplay.probe;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import lab.continuationreplay.core.wire.WireEnvelope;
import lab.continuationreplay.history.Layout;

/**
 * Plays the probe's checks against one server and writes what happened ({@link ProbeHistory}); it judges nothing
 * but what it must to go on (is this round answered with {@code input_required}, did the observer count on p1). The
 * checker derives every verdict from the history alone.
 *
 * <p>Each check works on calls of its own, each with fresh values: p1 one complete call; p2a the final round's reply
 * discarded, then the same round again; p3 twenty first sends of one final round at once; p4 a committed call's final
 * round again with changed arguments; p5 a call's final round with its state tampered; p7 the final round's reply
 * discarded, the server restarted, the same round again; p8 a new call with the same arguments; p9 a committed
 * call's final round again with changed input responses. The observer reads before and after each.
 *
 * <p>A tool whose first call completes in one round gets the single-round checks instead, on the same code where they
 * do what a multi-round check does: s2 as p2a, s3 as p3, s4 as p7, s5 as p8; and s8, twenty fresh calls at once.
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
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private final ProbeOptions options;
    private final ProbeHistory history;
    private final EffectObserver observer;
    private final InputAnswers answers;
    private final Restart restart;
    private final java.util.function.Supplier<ProbeConnection> other;
    /** Starts the stdio server again under a new name (null over HTTP): a first request fixes a process's era. */
    private final java.util.function.Function<String, ProbeConnection> again;
    private ProbeConnection connection;
    /** Whether the server speaks a version before 2026-07-28: requests carry no _meta, a process starts with initialize. */
    private boolean legacy;
    /** The version the server answered initialize with (null at 2026-07-28). */
    private String version;
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
        requireNewOrEmpty(options.out());
        ProbeClock clock = new ProbeClock();
        ProbeHistory history = new ProbeHistory(options.out(), clock);
        history.plan(plan(options));
        try {
            Files.createDirectories(history.run());
        } catch (IOException e) {
            throw new ProbeInputException("--out " + options.out() + ": " + e.getMessage(), e);
        }
        Path transcript = history.run().resolve("server" + Layout.TRANSCRIPT_SUFFIX);
        ProbeConnection connection;
        Restart restart;
        java.util.function.Supplier<ProbeConnection> other;
        java.util.function.Function<String, ProbeConnection> again = null;
        if (options.target() instanceof ProbeOptions.Target.Command command) {
            Map<String, String> otherEnvironment = new java.util.LinkedHashMap<>(environment);
            otherEnvironment.putAll(command.otherEnvironment());
            other = command.otherEnvironment().isEmpty() ? () -> null : () -> StdioConnection.start(command.command(),
                    otherEnvironment, history.run().resolve("other" + Layout.TRANSCRIPT_SUFFIX),
                    history.run().resolve("other" + Layout.STDERR_SUFFIX), options.requestTimeout(), clock);
            connection = StdioConnection.start(command.command(), environment, transcript,
                    history.run().resolve("server" + Layout.STDERR_SUFFIX), options.requestTimeout(), clock);
            again = name -> StdioConnection.start(command.command(), environment, history.run().resolve(name + Layout.TRANSCRIPT_SUFFIX),
                    history.run().resolve(name + Layout.STDERR_SUFFIX), options.requestTimeout(), clock);
            int[] starts = {1};
            restart = current -> {
                ((StdioConnection) current).kill();
                current.close();
                String name = "server-" + (++starts[0]);
                return StdioConnection.start(command.command(), environment, history.run().resolve(name + Layout.TRANSCRIPT_SUFFIX),
                        history.run().resolve(name + Layout.STDERR_SUFFIX), options.requestTimeout(), clock);
            };
        } else {
            ProbeOptions.Target.Url url = (ProbeOptions.Target.Url) options.target();
            connection = new HttpConnection(url, url.headers(), transcript, options.requestTimeout(), clock);
            other = url.otherHeaders().isEmpty() ? () -> null : () -> new HttpConnection(url, url.asOther(),
                    history.run().resolve("other" + Layout.TRANSCRIPT_SUFFIX), options.requestTimeout(), clock);
            restart = url.restartCommand() == null ? current -> null : current -> restartByCommand(url.restartCommand(), current);
        }
        ProbeRunner runner = new ProbeRunner(options, history, connection, restart, other, again);
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
        negotiate();
        JsonNode tool = discover();
        if (options.key() != null && !tool.path("inputSchema").path("properties").has(options.key().argument())) {
            List<String> names = new ArrayList<>();
            tool.path("inputSchema").path("properties").fieldNames().forEachRemaining(names::add);
            throw new ProbeInputException("--key-arg " + options.key().argument() + " is not an argument of '" + options.tool()
                    + "' (its input schema has " + names + ")");
        }
        int rounds = first();
        if (rounds == 1) {
            history.note("setup", "shape", "single-round");
            playSingleRound(tool);
            return;
        }
        history.note("setup", "shape", "multi-round");
        lostReply("p2a", rounds);
        p2b(rounds);
        race("p3", rounds);
        p4(rounds, tool);
        p5(rounds);
        p6(rounds);
        newCall("p8");
        p9(rounds);
        p10(rounds);
        restartThenRetry("p7", rounds);
    }

    /**
     * The checks on a tool that completes in one round, where the call itself is all a retry can send again. Those
     * that count new effects per call need {@code {{fresh}}} in the arguments: without it every call is the same one.
     */
    private void playSingleRound(JsonNode tool) {
        boolean fresh = FreshValues.used(options.arguments());
        lostReply("s2", 1);
        race("s3", 1);
        if (fresh) {
            newCall("s5");
            freshRace("s8");
            twoProcesses("s9");
        } else {
            for (String check : List.of("s5", "s8", "s9")) {
                history.note(check, "not-applicable", "the arguments hold no {{fresh}} value, so every call is the same call");
            }
        }
        if (options.key() == null) {
            for (String check : List.of("s6", "s6b", "s7")) {
                history.note(check, "not-applicable", "no idempotency key: give --key-arg NAME");
            }
        } else {
            keyWithChangedArguments("s6", tool);
            keyUnderAnotherPrincipal("s6b");
            keyWhileRunning("s7");
        }
        redelivery("r1");
        restartThenRetry("s4", 1);
    }

    /**
     * r1: the call's event stream closed right after its priming event, the reply unread; a second later GET with
     * {@code Last-Event-ID} resumes it and is read until quiet for two seconds; then the same call again, as s2.
     */
    private void redelivery(String check) {
        String notApplicable = !(connection instanceof HttpConnection) ? "redelivery is a Streamable HTTP rule; this server speaks stdio"
                : !legacy ? "at 2026-07-28 a call's response is never redelivered (SEP-2575)"
                : !REDELIVERY_VERSION.equals(version) ? "priming events and redelivery come with " + REDELIVERY_VERSION + "; the server speaks " + version
                : ((HttpConnection) connection).session() == null ? "the server is stateless (no Mcp-Session-Id): it keeps no stream to resume"
                : null;
        if (notApplicable != null) {
            history.note(check, "not-applicable", notApplicable);
            return;
        }
        HttpConnection http = (HttpConnection) connection;
        observe(check, "before");
        ObjectNode params = WireEnvelope.toolCall(options.tool(), arguments(), null, null);
        ObjectNode call = frame("tools/call", params);
        HttpConnection.Opened opened = http.openThenClose(call);
        history.exchange(check, "round-1", opened.exchange(), false);
        if (opened.primingId() == null) {
            String type = opened.contentType() == null ? "" : opened.contentType().toLowerCase(java.util.Locale.ROOT);
            history.note(check, "not-applicable", opened.exchange().reply() == null && type.isEmpty() ? "the call got no response: "
                    + opened.exchange().failure() : type.startsWith("text/event-stream") ? "no event id came before the response"
                    : "the response came as " + (type.isEmpty() ? "a body without a type" : opened.contentType()) + ", not an event stream");
            return;
        }
        pause(java.time.Duration.ofSeconds(1)); // the tool goes on without its stream; by now it has answered into the store
        history.resumed(check, opened.primingId(), http.resume(opened.primingId(), call.get("id")));
        history.exchange(check, "retry", connection.send(frame("tools/call", params)), false);
        observe(check, "after");
    }

    /** s6: a committed call's key sent again with other arguments (the key argument kept). */
    private void keyWithChangedArguments(String check, JsonNode tool) {
        String fresh = fresh();
        JsonNode arguments = FreshValues.apply(options.arguments(), fresh);
        JsonNode changed = options.changedArguments() != null ? FreshValues.apply(options.changedArguments(), fresh)
                : changedArguments(arguments, options.arguments(), tool.path("inputSchema"));
        if (changed == null) {
            history.note(check, "not-applicable", "no argument but the key to change; give --changed-args");
            return;
        }
        observe(check, "before");
        playCall(check, arguments, false);
        observe(check, "committed");
        history.exchange(check, "replay", connection.send(frame("tools/call", WireEnvelope.toolCall(options.tool(), changed, null, null))), false);
        observe(check, "after");
    }

    /** s6b: a committed call sent again, the same key and arguments, by another principal. */
    private void keyUnderAnotherPrincipal(String check) {
        ProbeConnection stranger = other.get();
        if (stranger == null) {
            history.note(check, "not-applicable", "no other principal: give --other-env K=V (stdio) or --other-header (HTTP)");
            return;
        }
        try {
            answering(stranger);
            if (legacy) {
                initialize(check, "the era found at the start", stranger);
            }
            observe(check, "before");
            List<Round> played = playCall(check, arguments(), false);
            observe(check, "committed");
            history.exchange(check, "other principal", stranger.send(frame("tools/call", played.get(0).params())), false);
            observe(check, "after");
        } finally {
            stranger.close();
        }
    }

    /** s7: a slow call, and half a second later the same key again, while the first is unanswered. */
    private void keyWhileRunning(String check) {
        if (options.key().slowArguments() == null) {
            history.note(check, "not-applicable", "no --slow-args: a single-round tool has committed before its reply can be held");
            return;
        }
        JsonNode slow = FreshValues.apply(options.key().slowArguments(), fresh());
        observe(check, "before");
        ObjectNode first = frame("tools/call", WireEnvelope.toolCall(options.tool(), slow, null, null));
        ObjectNode again = frame("tools/call", WireEnvelope.toolCall(options.tool(), slow, null, null));
        java.util.concurrent.CompletableFuture<Exchange> running = java.util.concurrent.CompletableFuture.supplyAsync(() -> connection.send(first));
        pause(java.time.Duration.ofMillis(500));
        Exchange second = connection.send(again);
        history.exchange(check, "slow", running.join(), false);
        history.exchange(check, "again", second, false);
        observe(check, "after");
    }

    /**
     * s9: a second process of the same command and environment (what two client applications configured with one
     * server run), ten calls on each, alternating: every acknowledged effect must be kept in the store they share.
     */
    private void twoProcesses(String check) {
        if (again == null) {
            history.note(check, "not-applicable", "two processes of one server need --command");
            return;
        }
        if (options.observer() instanceof ProbeOptions.Observer.ToolCount) {
            history.note(check, "not-applicable", "--effects-tool sees one process; give --effects-sqlite or --effects-cmd");
            return;
        }
        ProbeConnection second = again.apply("second");
        try {
            answering(second);
            if (legacy) {
                initialize(check, "the era found at the start", second);
            }
            observe(check, "before");
            for (int i = 0; i < 20; i++) {
                ProbeConnection on = i % 2 == 0 ? connection : second;
                Exchange call = on.send(frame("tools/call", WireEnvelope.toolCall(options.tool(), arguments(), null, null)));
                history.exchange(check, i % 2 == 0 ? "process-a" : "process-b", call, false);
                if (i < 2) {
                    observe(check, i == 0 ? "first-a" : "first-b");
                }
            }
            observe(check, "after");
        } finally {
            second.close();
        }
    }

    /** s8: twenty calls at once, each with fresh values of its own: every acknowledged call's effect must be kept. */
    private void freshRace(String check) {
        observe(check, "before");
        List<ObjectNode> frames = new ArrayList<>();
        for (int i = 0; i < RACE; i++) {
            frames.add(frame("tools/call", WireEnvelope.toolCall(options.tool(), arguments(), null, null)));
        }
        connection.sendTogether(frames).forEach(e -> history.exchange(check, "race", e, false));
        observe(check, "after");
    }

    /**
     * p2b: the final round is sent and given up at once (the stream closed, or notifications/cancelled), then sent
     * again. The observer reads between the two, so the checker can tell a commit from a cancellation.
     */
    private void p2b(int rounds) {
        observe("p2b", "before");
        ObjectNode last = playToFinal("p2b", arguments(), rounds);
        if (last == null) {
            return;
        }
        ObjectNode frame = frame("tools/call", last);
        Exchange cut = connection.cut(frame, cancelled(frame.get("id")));
        history.exchange("p2b", "cut", cut, cut.reply() != null);
        pause(java.time.Duration.ofSeconds(1)); // what the server still does with the cut request, it does now
        observe("p2b", "cut");
        history.exchange("p2b", "retry", connection.send(frame("tools/call", last)), false);
        observe("p2b", "after");
    }

    /** p10: the final round once the state's lifetime (--state-ttl) has passed. */
    private void p10(int rounds) {
        java.time.Duration ttl = options.tuning().stateTtl();
        if (ttl == null) {
            history.note("p10", "not-applicable", "the server's state lifetime is not given: --state-ttl SECONDS");
            return;
        }
        observe("p10", "before");
        ObjectNode last = playToFinal("p10", arguments(), rounds);
        if (last == null) {
            return;
        }
        history.note("p10", "waited", "waiting " + (ttl.toSeconds() + 1) + " s for the state to expire");
        pause(ttl.plusSeconds(1));
        history.exchange("p10", "expired", connection.send(frame("tools/call", last)), false);
        observe("p10", "after");
    }

    private ObjectNode cancelled(JsonNode id) {
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

    private static void pause(java.time.Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** p5: the final round with a tampered state in place of the real one, each variant on its own. */
    private void p5(int rounds) {
        observe("p5", "before");
        ObjectNode last = playToFinal("p5", arguments(), rounds);
        if (last == null) {
            return;
        }
        if (!last.path("requestState").isTextual()) {
            history.note("p5", "not-applicable", "the final round carries no requestState to tamper with");
            return;
        }
        for (StateTampering.Variant variant : StateTampering.variants(last.path("requestState").textValue())) {
            ObjectNode tampered = last.deepCopy();
            tampered.put("requestState", variant.state());
            history.exchange("p5", "tampered " + variant.name(), connection.send(frame("tools/call", tampered)), false);
            observe("p5", "after-" + variant.name());
        }
    }

    /** p6: a call's final round sent by another principal (a second stdio process, or other headers). */
    private void p6(int rounds) {
        ProbeConnection stranger = other.get();
        if (stranger == null) {
            history.note("p6", "not-applicable", "no other principal: give --other-env K=V (stdio) or --other-header (HTTP)");
            return;
        }
        try {
            observe("p6", "before");
            ObjectNode last = playToFinal("p6", arguments(), rounds);
            if (last != null) {
                history.exchange("p6", "other principal", stranger.send(frame("tools/call", last)), false);
            }
            observe("p6", "after");
        } finally {
            stranger.close();
        }
    }

    /**
     * p7 and s4: the final round is answered and its reply discarded, the server is killed and started again (stdio), or
     * restarted by the user's command (HTTP), and the same round is sent to it.
     */
    private void restartThenRetry(String check, int rounds) {
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
            awaitInitialized(check);
        }
        awaitReady(check);
        history.exchange(check, "retry", connection.send(frame("tools/call", played.get(played.size() - 1).params())), false);
        observe(check, "after");
    }

    /** initialize until the restarted server answers it (30 s at most), since it may take a while to listen. */
    private void awaitInitialized(String check) {
        long deadline = System.nanoTime() + java.time.Duration.ofSeconds(30).toNanos();
        while (true) {
            try {
                initialize(check, "the era found at the start");
                return;
            } catch (ProbeInputException notYet) {
                if (System.nanoTime() > deadline) {
                    throw notYet;
                }
                pause(java.time.Duration.ofMillis(500));
            }
        }
    }

    /** Asks tools/list until the server answers (30 s at most): a restarted server may take a while to listen. */
    private void awaitReady(String check) {
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

    /** Runs the user's restart command; the probe then waits until the server answers again. */
    private static ProbeConnection restartByCommand(String command, ProbeConnection current) {
        try {
            lab.continuationreplay.core.exec.Exec.Result result = lab.continuationreplay.core.exec.Exec.command("sh", "-c", command)
                    .withStderr(lab.continuationreplay.core.exec.Exec.Io.INTO_STDOUT).run(java.time.Duration.ofSeconds(120));
            if (result.timedOut() || result.exitStatus() != 0) {
                throw new ProbeInputException("--restart-cmd " + (result.timedOut() ? "did not end within 120 s" : "exited "
                        + result.exitStatus()) + ": " + result.output().strip());
            }
        } catch (java.io.IOException e) {
            throw new ProbeInputException("--restart-cmd could not run: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ProbeInputException("interrupted while restarting the server");
        }
        return current;
    }

    /** The versions before 2026-07-28 the probe speaks, newest first: all that the official SDKs' servers accept. */
    static final List<String> LEGACY_VERSIONS = List.of("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05");

    /**
     * Which protocol the server speaks: {@code server/discover} offering 2026-07-28, else (over stdio) a new process
     * with the {@code initialize} handshake of the earlier versions, since a stdio process's first request fixes its era.
     */
    private void negotiate() {
        Exchange discovered = connection.send(frame("server/discover", JSON.objectNode()));
        history.exchange("setup", "server/discover", discovered, false);
        JsonNode offered = discovered.reply() == null ? null : discovered.reply().path("result").path("supportedVersions");
        if (offered != null && offered.isArray()) {
            for (JsonNode version : offered) {
                if (version.asText().equals(WireEnvelope.PROTOCOL_VERSION)) {
                    return;
                }
            }
        }
        if (discovered.reply() == null && !connection.alive()) {
            throw new ProbeInputException("the server does not answer: " + discovered.failure() + " (check " + targetOption() + ")");
        }
        String modern = discovered.reply() == null ? discovered.failure() : discovered.reply().has("error")
                ? discovered.reply().path("error").path("code").asInt() + " " + discovered.reply().path("error").path("message").asText()
                : "it offers " + offered;
        legacy = true;
        if (again == null) {
            // over HTTP each request names its version: the same server is asked again, with initialize
            history.note("setup", "legacy", "server/discover: " + modern + "; initialize");
        } else {
            ((StdioConnection) connection).kill();
            connection.close();
            connection = again.apply("server-initialize");
            answering(connection);
            history.note("setup", "legacy", "server/discover: " + modern + "; a new process, with initialize");
        }
        version = initialize("setup", modern);
    }

    private String targetOption() {
        return options.target() instanceof ProbeOptions.Target.Url ? "--url" : "--command";
    }

    private String initialize(String check, String whyNotModern) {
        return initialize(check, whyNotModern, connection);
    }

    /** The handshake before 2026-07-28 on {@code on}: initialize, the version the server answers, notifications/initialized. */
    private String initialize(String check, String whyNotModern, ProbeConnection on) {
        ObjectNode params = JSON.objectNode().put("protocolVersion", LEGACY_VERSIONS.get(0));
        ObjectNode capabilities = params.putObject("capabilities");
        capabilities.putObject("elicitation");
        capabilities.putObject("sampling");
        capabilities.putObject("roots").put("listChanged", false);
        params.putObject("clientInfo").put("name", "lab-probe").put("version", "0.1.0");
        Exchange initialized = on.send(frame("initialize", params));
        history.exchange(check, "initialize", initialized, false);
        String version = initialized.reply() == null ? null : initialized.reply().path("result").path("protocolVersion").asText(null);
        if (version == null || !LEGACY_VERSIONS.contains(version)) {
            String answer = initialized.reply() == null ? initialized.failure() : initialized.reply().has("error")
                    ? initialized.reply().path("error").path("code").asInt() + " " + initialized.reply().path("error").path("message").asText()
                    : "version " + version;
            throw new ProbeInputException("the server speaks no protocol version lab probe knows (server/discover: " + whyNotModern
                    + "; initialize: " + answer + "); it knows 2026-07-28 and " + String.join(", ", LEGACY_VERSIONS)
                    + " (check " + targetOption() + ")");
        }
        ObjectNode notification = JSON.objectNode().put("jsonrpc", "2.0").put("method", "notifications/initialized");
        String failure = on.notify(notification);
        if (failure != null) {
            throw new ProbeInputException("the server answered initialize with " + version + ", then refused notifications/initialized: "
                    + failure + " (check " + targetOption() + ")");
        }
        return version;
    }

    /** Requests the server sends in the middle of a call (its input requests before 2026-07-28) get the probe's answers. */
    private void answering(ProbeConnection started) {
        if (started instanceof StdioConnection stdio) {
            stdio.answerServerRequests(answers::serverRequest);
        } else if (started instanceof HttpConnection http) {
            http.answerServerRequests(answers::serverRequest);
        }
    }

    /** tools/list: the server speaks 2026-07-28 and lists the tool. */
    private JsonNode discover() {
        List<String> names = new ArrayList<>();
        String cursor = null;
        for (int page = 0; page < 10; page++) {
            ObjectNode params = JSON.objectNode();
            if (cursor != null) {
                params.put("cursor", cursor);
            }
            Exchange listed = connection.send(frame("tools/list", params));
            history.exchange("setup", "tools/list", listed, false);
            if (listed.reply() == null) {
                throw new ProbeInputException("the server does not answer tools/list: " + listed.failure()
                        + " (check --url or --command)");
            }
            JsonNode error = listed.reply().path("error");
            if (!error.isMissingNode()) {
                throw new ProbeInputException(error.path("code").asInt() == -32022
                        ? "the server does not negotiate protocol 2026-07-28 (-32022 " + error.path("message").asText() + ")"
                        : "tools/list failed: " + error.path("code").asInt() + " " + error.path("message").asText());
            }
            for (JsonNode tool : listed.reply().path("result").path("tools")) {
                names.add(tool.path("name").asText());
                if (options.tool().equals(tool.path("name").asText())) {
                    return tool;
                }
            }
            cursor = listed.reply().path("result").path("nextCursor").asText(null);
            if (cursor == null) {
                break;
            }
        }
        throw new ProbeInputException("the server has no tool '" + options.tool() + "' (--tool); it lists " + names);
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
    private void lostReply(String check, int rounds) {
        observe(check, "before");
        List<Round> played = playCall(check, arguments(), true);
        if (played.size() == rounds) {
            Round last = played.get(played.size() - 1);
            history.exchange(check, "retry", connection.send(frame("tools/call", last.params())), false);
        }
        observe(check, "after");
    }

    /** p3 and s3: twenty first sends of one call's final round (a single-round tool's only one), all at once. */
    private void race(String check, int rounds) {
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

    /** p4: a committed call's final round again, with the state and answers it had but changed arguments. */
    private void p4(int rounds, JsonNode tool) {
        String fresh = fresh();
        JsonNode changed = options.changedArguments() != null ? FreshValues.apply(options.changedArguments(), fresh)
                : changedArguments(FreshValues.apply(options.arguments(), fresh), options.arguments(), tool.path("inputSchema"));
        if (changed == null) {
            history.note("p4", "not-applicable", "no string argument to change; give --changed-args");
            return;
        }
        replayAfterCommit("p4", rounds, FreshValues.apply(options.arguments(), fresh), params -> {
            ObjectNode replay = params.deepCopy();
            replay.set("arguments", changed);
            return replay;
        });
    }

    /** p8 and s5: a new call with fresh values and the same arguments: an intentional second write. */
    private void newCall(String check) {
        observe(check, "before");
        playCall(check, arguments(), false);
        observe(check, "after");
    }

    /** p9: a committed call's final round again with changed input responses. */
    private void p9(int rounds) {
        replayAfterCommit("p9", rounds, arguments(), params -> {
            ObjectNode replay = params.deepCopy();
            if (params.get("inputResponses") instanceof ObjectNode responses) {
                replay.set("inputResponses", InputAnswers.changed(responses));
            }
            return replay;
        });
    }

    private void replayAfterCommit(String check, int rounds, JsonNode arguments, java.util.function.UnaryOperator<ObjectNode> change) {
        observe(check, "before");
        List<Round> played = playCall(check, arguments, false);
        observe(check, "committed");
        if (played.size() == rounds && !played.get(played.size() - 1).params().path("requestState").isTextual()) {
            // without a state the replay is just a new call with other input: nothing binds it to the first
            history.note(check, "not-applicable", "the final round carries no requestState to replay");
            return;
        }
        if (played.size() == rounds && Reply.of(played.get(played.size() - 1).exchange()) == Reply.COMPLETE) {
            ObjectNode replay = change.apply(played.get(played.size() - 1).params());
            history.exchange(check, "replay", connection.send(frame("tools/call", replay)), false);
        }
        observe(check, "after");
    }

    /** One request's params and its exchange. */
    private record Round(ObjectNode params, Exchange exchange) {}

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
    private List<Round> playCall(String check, JsonNode arguments, boolean discardLast) {
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
    private ObjectNode playToFinal(String check, JsonNode arguments, int rounds) {
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

    private EffectObserver.Reading observe(String check, String phase) {
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

    private ObjectNode frame(String method, ObjectNode params) {
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

    private JsonNode arguments() {
        return FreshValues.apply(options.arguments(), fresh());
    }

    private String fresh() {
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

    /** The plan: what the user asked for, without a header value or an environment. */
    private static ObjectNode plan(ProbeOptions options) {
        ObjectNode plan = JSON.objectNode();
        ObjectNode target = plan.putObject("target");
        if (options.target() instanceof ProbeOptions.Target.Command command) {
            target.put("kind", "stdio").put("command", command.command());
            command.otherEnvironment().keySet().stream().sorted().forEach(k -> target.withArray("other_environment_names").add(k));
        } else if (options.target() instanceof ProbeOptions.Target.Url url) {
            target.put("kind", "http").put("url", url.url().toString());
            url.headers().forEach(h -> target.withArray("header_names").add(h.name()));
            url.otherHeaders().forEach(h -> target.withArray("other_header_names").add(h.name()));
            if (url.restartCommand() != null) {
                target.put("restart_command", url.restartCommand());
            }
        }
        plan.put("tool", options.tool());
        plan.set("arguments", options.arguments());
        options.answers().keySet().stream().sorted().forEach(key -> plan.withArray("answered_keys").add(key));
        ObjectNode observed = plan.putObject("observer");
        if (options.observer() instanceof ProbeOptions.Observer.ShellCount shell) {
            observed.put("kind", "command").put("command", shell.command());
        } else if (options.observer() instanceof ProbeOptions.Observer.SqliteRows rows) {
            observed.put("kind", "sqlite").put("file", rows.database().toString()).put("table", rows.table());
        } else if (options.observer() instanceof ProbeOptions.Observer.ToolCount counting) {
            observed.put("kind", "tool").put("tool", counting.tool());
        } else {
            observed.put("kind", "none");
        }
        if (options.changedArguments() != null) {
            plan.set("changed_arguments", options.changedArguments());
        }
        options.tuning().ignoredKeys().forEach(k -> plan.withArray("ignore_keys").add(k));
        if (options.tuning().stateTtl() != null) {
            plan.put("state_ttl_s", options.tuning().stateTtl().toSeconds());
        }
        plan.put("request_timeout_ms", options.requestTimeout().toMillis());
        plan.put("race", RACE);
        CHECKS.forEach(c -> plan.withArray("checks").add(c));
        SINGLE_ROUND_CHECKS.forEach(c -> plan.withArray("single_round_checks").add(c));
        return plan;
    }

    private static void requireNewOrEmpty(Path out) {
        if (Files.exists(out)) {
            if (!Files.isDirectory(out)) {
                throw new ProbeInputException("--out " + out + " is a file; give a new or empty folder");
            }
            try (Stream<Path> entries = Files.list(out)) {
                if (entries.findAny().isPresent()) {
                    throw new ProbeInputException("--out " + out + " is not empty; give a new or empty folder (a run is never overwritten)");
                }
            } catch (IOException e) {
                throw new ProbeInputException("--out " + out + ": " + e.getMessage(), e);
            }
        }
    }
}
