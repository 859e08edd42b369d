package lab.continuationreplay.faults.fuzz;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import lab.continuationreplay.faults.FaultRecorder;
import lab.continuationreplay.faults.FaultSession;
import lab.continuationreplay.faults.common.FaultServers;
import lab.continuationreplay.history.FaultEvent;
import lab.continuationreplay.core.client.ToolClient;
import lab.continuationreplay.history.Reply;
import lab.continuationreplay.core.servers.ServerKind;
import lab.continuationreplay.core.servers.WireSettings;
import lab.continuationreplay.core.wire.ServerProcess;
import lab.continuationreplay.core.wire.TransportFailure;
import lab.continuationreplay.core.wire.WireEnvelope;
import lab.continuationreplay.vectors.ExactJson;

/** The fuzzing of one SDK's server: send, synchronise, classify every line, account for every row. */
final class WireFuzzRun {
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(10);
    /** How long a request's own reply may trail the synchronisation reply (a bridge call, say). */
    private static final Duration REPLY_GRACE = Duration.ofSeconds(3);
    /** How long a frame that is not a request, and whose id comes again, may still be answered with that id. */
    private static final Duration REPEATED_ID_QUIET = Duration.ofMillis(200);

    private final FaultSession session;
    private final ServerKind sdk;
    private final Path folder;
    private final Random random;
    private final RequestMutator mutator;
    private final Path database;
    private final List<String> labErrors = new ArrayList<>();
    private int linesNotJson;
    private final Map<String, Integer> byKind = new TreeMap<>();
    private final Map<String, Integer> errorsByCode = new TreeMap<>();
    private final Map<String, Integer> ignoredByClass = new TreeMap<>();
    private final Map<String, Integer> appliedByKind = new TreeMap<>();
    private final Map<Integer, Pending> pendingByCase = new TreeMap<>();
    private final Map<String, Pending> pendingById = new HashMap<>();
    private ServerProcess server;
    private int serverNumber;
    private int answered;
    private int ignored;
    private int idlessReplies;
    private int unansweredRequests;
    private int answeredNotifications;
    private int strayLines;
    private int crashes;
    private int hangs;

    WireFuzzRun(FaultSession session, ServerKind sdk, Path folder, Random random) {
        this.session = session;
        this.sdk = sdk;
        this.folder = folder;
        this.random = random;
        this.mutator = new RequestMutator(random);
        this.database = folder.resolve("fuzz.sqlite3");
    }

    private String scope() {
        return session.scope(sdk);
    }

    ObjectNode fuzz(int count) throws Exception {
        WireSettings settings = WireSettings.matrix(database, "alice");
        session.history().ledger(scope(), database, "fz-" + sdk.label() + "-");
        server = startServer(settings);
        for (int n = 0; n < count; n++) {
            {
                String operationId = "fz-" + sdk.label() + "-" + n;
                ObjectNode base = base(n, operationId);
                if (base == null) {
                    server = restart(settings, "preparing case " + n + " failed");
                    base = base(n, operationId);
                }
                FuzzCase fuzzCase = mutator.mutate(base, operationId);
                if (fuzzCase.mustFail()) {
                    session.history().sentMustRefuse(scope(), database, fuzzCase.operationId());
                } else {
                    session.history().sent(scope(), database, fuzzCase.operationId());
                }
                exchange(n, fuzzCase, base.get("id"), settings);
                byKind.merge(fuzzCase.kind(), 1, Integer::sum);
                if (n > 0 && n % 2000 == 0) {
                    session.log(NAME() + " " + sdk.label() + ": " + n + " requests");
                }
            }
        }
        readUntil(null, REPLY_GRACE); // late replies (a bridge call after the last sync)
        settle();
        writeCases();
        boolean stillServing = finalCall();
        server.close();
        session.history().expect(scope(), "lines on stdout that are not JSON", 0, linesNotJson);
        session.history().expect(scope(), "errors of the lab while fuzzing", "none", labErrors.isEmpty() ? "none" : String.join("; ", labErrors));

        ObjectNode figures = figures(count);
        figures.put("still_serving", stillServing);
        session.history().expect(scope(), "a valid round one, continuation and status at the end", "served",
                stillServing ? "served" : "not served");
        return figures;
    }

    /** One line per case: what was sent, how the frame classes, and what came back. */
    private void writeCases() throws IOException {
        try (BufferedWriter log = Files.newBufferedWriter(folder.resolve("cases.jsonl"), StandardCharsets.UTF_8)) {
            for (Pending p : pendingByCase.values()) {
                log.write(JsonNodeFactory.instance.objectNode().put("n", p.n).put("kind", p.fuzzCase.kind()).put("variant", p.fuzzCase.variant())
                        .put("class", p.verdict.kind().name().toLowerCase(java.util.Locale.ROOT)).put("bytes", p.fuzzCase.bytes().length)
                        .put("must_fail", p.fuzzCase.mustFail()).put("outcome", p.outcome).toString());
                log.write('\n');
            }
        }
    }

    /** The run's counts, for the table: figures only; the verdicts come from the history. */
    private ObjectNode figures(int count) {
        ObjectNode figures = JsonNodeFactory.instance.objectNode();
        figures.put("requests_sent", count);
        ObjectNode kinds = figures.putObject("by_kind");
        byKind.forEach(kinds::put);
        figures.put("answered", answered);
        figures.put("ignored", ignored);
        ObjectNode ignoredClasses = figures.putObject("ignored_by_class");
        ignoredByClass.forEach(ignoredClasses::put);
        figures.put("replies_without_id", idlessReplies);
        ObjectNode codes = figures.putObject("errors_by_code");
        errorsByCode.forEach(codes::put);
        figures.put("unanswered_requests", unansweredRequests);
        figures.put("answered_notifications", answeredNotifications);
        figures.put("crashes", crashes);
        figures.put("hangs", hangs);
        figures.put("server_processes", serverNumber);
        ObjectNode applied = figures.putObject("mutated_continuations_applied");
        appliedByKind.forEach(applied::put);
        return figures;
    }

    private static String NAME() {
        return WireFuzzExperiment.NAME;
    }

    /** A valid frame to mutate: round one, a continuation (with a fresh valid state), status, discover or tools/list. */
    private ObjectNode base(int n, String operationId) {
        JsonNodeFactory json = JsonNodeFactory.instance;
        ObjectNode frame = json.objectNode().put("jsonrpc", "2.0");
        if (random.nextBoolean()) {
            frame.put("id", "fz-" + n);
        } else {
            frame.put("id", 1_000_000 + n);
        }
        ObjectNode params = json.objectNode();
        int roll = random.nextInt(100);
        ObjectNode arguments = ToolClient.arguments(operationId, "fuzz title " + n, random.nextInt(4) == 0 ? "partial" : "atomic");
        if (roll < 35) {
            String token;
            try {
                token = roundOne(n, arguments);
            } catch (Exception e) {
                labErrors.add("round one before case " + n + " failed: " + e.getMessage());
                return null;
            }
            frame.put("method", "tools/call");
            params.put("name", ToolClient.CREATE).set("arguments", arguments);
            params.set("inputResponses", ToolClient.accepted("fuzz body " + n));
            params.put("requestState", token);
        } else if (roll < 60) {
            frame.put("method", "tools/call");
            params.put("name", ToolClient.CREATE).set("arguments", arguments);
        } else if (roll < 75) {
            frame.put("method", "tools/call");
            params.put("name", ToolClient.STATUS).set("arguments", json.objectNode().put("operation_id", operationId));
        } else if (roll < 85) {
            frame.put("method", "server/discover");
        } else {
            frame.put("method", "tools/list");
        }
        params.set("_meta", WireEnvelope.meta());
        frame.set("params", params);
        return frame;
    }

    /** Sends one case and a synchronising tools/list; reads until the sync reply. Replies are attributed by id. */
    private String exchange(int n, FuzzCase fuzzCase, JsonNode baseId, WireSettings settings) throws Exception {
        FrameClass.Verdict verdict = FrameClass.of(fuzzCase.bytes());
        Pending pending = new Pending(n, fuzzCase, verdict);
        pendingByCase.put(n, pending);
        List<String> keys = new ArrayList<>(FrameClass.readableKeys(fuzzCase.bytes()));
        keys.add(FrameClass.key(baseId));
        keys.add(FrameClass.key(verdict.id()));
        keys.add("s:batch-second-" + n);
        for (String key : keys) {
            if (key != null) {
                awaitEarlierCase(key, pending);
                pendingById.put(key, pending); // from now on a reply with this id is this case's
            }
        }
        String syncId = "sync-" + n;
        try {
            server.sendBytes(fuzzCase.bytes());
            ObjectNode sync = JsonNodeFactory.instance.objectNode().put("jsonrpc", "2.0").put("id", syncId).put("method", "tools/list");
            sync.putObject("params").set("_meta", WireEnvelope.meta());
            server.sendRaw(sync.toString());
        } catch (TransportFailure dead) {
            return lost(n, fuzzCase, settings, "cannot write: " + dead.getMessage());
        }
        if (!readUntil("s:" + syncId, READ_TIMEOUT)) {
            return lost(n, fuzzCase, settings, server.isAlive() ? "no reply within " + READ_TIMEOUT.toSeconds() + " s" : "server died");
        }
        return "sent";
    }

    /**
     * Ids repeat on purpose ({@code 0}, {@code ""}, {@code -0}, {@code 1e-400} read as 0): before a case takes over an
     * id, an earlier case with that id that has no reply yet gets its chance, so its late reply is not attributed to
     * the new case. A request must be answered, so it gets the full grace; any other {@code tools/call} frame a short
     * quiet period (a reply with its id would mean the server read it as a request, which is what the fuzzer is looking
     * for; only a tool call, through the ledger or the bridge, can be answered after the synchronising reply).
     */
    private void awaitEarlierCase(String key, Pending next) throws InterruptedException {
        Pending earlier = pendingById.get(key);
        if (earlier == null || earlier == next || earlier.lost || !earlier.replies.isEmpty()) {
            return;
        }
        Duration wait;
        if (earlier.verdict.kind() == FrameClass.Kind.REQUEST) {
            wait = REPLY_GRACE;
        } else if ("tools/call".equals(FrameClass.readableMethod(earlier.fuzzCase.bytes()))) {
            wait = REPEATED_ID_QUIET;
        } else {
            return; // anything else a server reads as a request it answers at once, before the synchronising reply
        }
        long deadline = System.nanoTime() + wait.toNanos();
        while (earlier.replies.isEmpty()) {
            long left = deadline - System.nanoTime();
            if (left <= 0 || !attributeNext(Duration.ofNanos(left), null).isPresent()) {
                return;
            }
        }
    }

    /** Reads lines, attributing each, until the reply with id {@code key} (true) or the timeout (false). */
    private boolean readUntil(String key, Duration timeout) throws InterruptedException {
        return awaitReply(key, timeout) != null;
    }

    /** Round one with this run's own id, read through the same attribution (a late reply is never dropped). */
    private String roundOne(int n, ObjectNode arguments) throws Exception {
        ObjectNode frame = JsonNodeFactory.instance.objectNode().put("jsonrpc", "2.0").put("id", "prep-" + n).put("method", "tools/call");
        ObjectNode params = frame.putObject("params");
        params.put("name", ToolClient.CREATE).set("arguments", arguments);
        params.set("_meta", WireEnvelope.meta());
        server.sendRaw(frame.toString());
        JsonNode reply = awaitReply("s:prep-" + n, READ_TIMEOUT);
        String token = reply == null ? null : reply.path("result").path("requestState").textValue();
        if (token == null) {
            throw new TransportFailure("round one got " + (reply == null ? "no reply" : reply.toString()));
        }
        return token;
    }

    private JsonNode awaitReply(String key, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return null;
            }
            Optional<Optional<JsonNode>> read = attributeNext(Duration.ofNanos(left), key);
            if (read.isEmpty()) {
                return null;
            }
            if (read.get().isPresent()) {
                return read.get().get();
            }
        }
    }

    /**
     * Reads one line and attributes it: empty if nothing came within {@code timeout}; else the line itself if its id
     * is {@code key}, or an empty inner value once it is attributed to a case (or counted as id-less or stray).
     */
    private Optional<Optional<JsonNode>> attributeNext(Duration timeout, String key) throws InterruptedException {
        Optional<String> line = server.nextLine(timeout);
        if (line.isEmpty()) {
            return Optional.empty();
        }
        JsonNode parsed;
        try {
            parsed = ExactJson.parse(line.get());
        } catch (IllegalArgumentException notJson) {
            linesNotJson++;
            return Optional.of(Optional.empty());
        }
        String id = FrameClass.key(parsed.get("id"));
        if (key != null && key.equals(id)) {
            return Optional.of(Optional.of(parsed));
        }
        if (id == null) {
            idlessReplies++;
            errorsByCode.merge(String.valueOf(parsed.path("error").path("code").asInt()), 1, Integer::sum);
            return Optional.of(Optional.empty());
        }
        Pending pending = pendingById.get(id);
        if (pending == null || id.startsWith("s:sync-")) {
            strayLines++;
        } else {
            pending.replies.add(parsed);
        }
        return Optional.of(Optional.empty());
    }

    /** Settles every case once all lines are in: answered or ignored, errors by code, success for the row check. */
    private void settle() {
        for (Pending pending : pendingByCase.values()) {
            FuzzCase fuzzCase = pending.fuzzCase;
            boolean success = false;
            String outcome;
            if (pending.lost) {
                outcome = "lost";
            } else if (pending.replies.isEmpty()) {
                ignored++;
                ignoredByClass.merge(pending.verdict.kind().name().toLowerCase(java.util.Locale.ROOT), 1, Integer::sum);
                outcome = "ignored";
                if (pending.verdict.kind() == FrameClass.Kind.REQUEST) {
                    unansweredRequests++;
                    try {
                        saveReproducer(pending.n, fuzzCase, "unanswered");
                    } catch (Exception e) {
                        labErrors.add("cannot save a reproducer: " + e.getMessage());
                    }
                    session.history().expect(scope(), "case " + pending.n + " (" + fuzzCase.kind() + ", " + fuzzCase.variant()
                            + "), a well-formed request", "a reply", "none");
                }
            } else {
                answered++;
                JsonNode reply = pending.replies.get(0);
                if (pending.verdict.kind() == FrameClass.Kind.NOTIFICATION) {
                    answeredNotifications++;
                    session.history().expect(scope(), "case " + pending.n + " (" + fuzzCase.kind() + ", " + fuzzCase.variant()
                            + "), a notification", "no reply", "a reply");
                }
                if (reply.has("error")) {
                    errorsByCode.merge(String.valueOf(reply.path("error").path("code").asInt()), 1, Integer::sum);
                    outcome = "error " + reply.path("error").path("code").asInt();
                } else if (reply.path("result").path("isError").asBoolean(false)) {
                    errorsByCode.merge("isError", 1, Integer::sum);
                    outcome = "isError";
                } else {
                    outcome = "result";
                    success = true;
                    if (reply.path("result").path("structuredContent").path("replayed").isBoolean()) {
                        appliedByKind.merge(fuzzCase.kind(), 1, Integer::sum);
                    }
                }
            }
            pending.outcome = outcome;
            record(pending, success);
        }
    }

    /** One case until it is settled. */
    private static final class Pending {
        final int n;
        final FuzzCase fuzzCase;
        final FrameClass.Verdict verdict;
        final List<JsonNode> replies = new ArrayList<>();
        boolean lost;
        String outcome;

        Pending(int n, FuzzCase fuzzCase, FrameClass.Verdict verdict) {
            this.n = n;
            this.fuzzCase = fuzzCase;
            this.verdict = verdict;
        }
    }

    /** The server died or hung on a case: a finding, its reproducer saved, a new server. */
    private String lost(int n, FuzzCase fuzzCase, WireSettings settings, String what) throws Exception {
        boolean died = !server.isAlive();
        if (died) {
            crashes++;
        } else {
            hangs++;
        }
        Path reproducer = saveReproducer(n, fuzzCase, died ? "crash" : "hang");
        session.history().kill(scope(), "server", "case " + n + " (" + fuzzCase.kind() + ", " + fuzzCase.variant() + "): " + what
                + "; reproducer " + folder.relativize(reproducer));
        session.history().expect(scope(), "case " + n + " (" + fuzzCase.kind() + ", " + fuzzCase.variant() + ")",
                "answered or ignored", (died ? "crashed: " : "hung: ") + what);
        server = restart(settings, what);
        Pending pending = pendingByCase.get(n);
        if (pending != null) {
            pending.lost = true;
        }
        return died ? "crash" : "hang";
    }

    private Path saveReproducer(int n, FuzzCase fuzzCase, String what) throws Exception {
        Path dir = Files.createDirectories(folder.resolve("reproducers"));
        Path file = dir.resolve(what + "-" + n + "-" + fuzzCase.kind() + ".line");
        byte[] line = java.util.Arrays.copyOf(fuzzCase.bytes(), fuzzCase.bytes().length + 1);
        line[line.length - 1] = '\n';
        Files.write(file, line);
        return file;
    }

    private ServerProcess startServer(WireSettings settings) throws Exception {
        serverNumber++;
        return FaultServers.startStdio(session, sdk, settings, folder, "server-" + serverNumber, READ_TIMEOUT);
    }

    private ServerProcess restart(WireSettings settings, String why) throws Exception {
        session.log(NAME() + " " + sdk.label() + ": restarting the server (" + why + ")");
        server.close();
        return startServer(settings);
    }

    /** A valid round one, continuation and status at the end: the server still serves. */
    private boolean finalCall() {
        try {
            ObjectNode arguments = ToolClient.arguments("fz-" + sdk.label() + "-final", "fuzz final", "atomic");
            String token = ToolClient.on(server).roundOne(arguments);
            session.history().sent(scope(), database, "fz-" + sdk.label() + "-final");
            Reply commit = ToolClient.on(server).continuation(ToolClient.CREATE, arguments, JsonNodeFactory.instance.textNode(token), "final body");
            session.history().answer(scope(), database, "fz-" + sdk.label() + "-final", commit);
            Reply status = ToolClient.on(server).status("fz-" + sdk.label() + "-final");
            return commit.isSuccess() && "applied".equals(status.structured().path("state").asText());
        } catch (TransportFailure | IllegalStateException e) {
            labErrors.add("final call: " + e.getMessage());
            return false;
        }
    }

    /** What came back for one case, for the faults checker. */
    private void record(Pending pending, boolean success) {
        String operation = pending.fuzzCase.operationId();
        if (pending.lost) {
            session.history().lost(scope(), database, operation, "the server crashed or hung");
        } else if (pending.replies.isEmpty()) {
            session.history().answered(scope(), database, operation, FaultEvent.Outcome.IGNORED, null);
        } else if (success) {
            session.history().answered(scope(), database, operation, FaultRecorder.outcomeOf(pending.replies.get(0).path("result")), null);
        } else {
            JsonNode reply = pending.replies.get(0);
            String text = reply.has("error") ? reply.path("error").path("code").asInt() + " " + reply.path("error").path("message").asText()
                    : reply.path("result").path("content").path(0).path("text").asText();
            session.history().refused(scope(), database, operation, text);
        }
    }
}
