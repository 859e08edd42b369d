package lab.continuationreplay.faults.fuzz;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import lab.continuationreplay.core.client.ToolClient;
import lab.continuationreplay.core.servers.ServerKind;
import lab.continuationreplay.core.servers.WireSettings;
import lab.continuationreplay.core.wire.HttpExchanges;
import lab.continuationreplay.core.wire.HttpServerProcess;
import lab.continuationreplay.faults.FaultRecorder;
import lab.continuationreplay.faults.FaultSession;
import lab.continuationreplay.history.FaultEvent;
import lab.continuationreplay.faults.common.FaultServers;
import lab.continuationreplay.faults.common.HttpCall;
import lab.continuationreplay.history.Reply;

/** The HTTP fuzzing of one SDK's server: one long-lived server, the cases sent by a few clients at once, then the rows. */
final class HttpFuzzRun {
    /** Short, so requests that never complete end soon; the lab waits longer than the server. */
    static final int SERVER_READ_TIMEOUT_MS = 2000;
    private static final Duration CLIENT_READ_TIMEOUT = Duration.ofSeconds(10);
    private static final int SENDERS = 8;

    /** One case as sent and answered. */
    record Sent(int n, HttpFuzzCase fuzz, HttpCall.Outcome outcome) {}

    private final FaultSession session;
    private final ServerKind sdk;
    private final Path folder;
    private final Random random;
    private final Map<String, Map<String, Integer>> byClass = new TreeMap<>();

    HttpFuzzRun(FaultSession session, ServerKind sdk, Path folder, Random random) {
        this.session = session;
        this.sdk = sdk;
        this.folder = folder;
        this.random = random;
    }

    /** Statuses by class: class label, then outcome label → count. */
    Map<String, Map<String, Integer>> byClass() {
        return byClass;
    }

    /** What the seed decides for one case before anything is sent: its class, round one or continuation, its own seed. */
    private record Planned(HttpFuzzClass kind, boolean continuation, long seed) {}

    ObjectNode fuzz(int count) throws Exception {
        Path database = folder.resolve("store.sqlite3");
        String prefix = "hf-" + sdk.label() + "-";
        session.history().ledger(scope(), database, prefix);
        List<Planned> plan = new ArrayList<>();
        HttpRequestMutator chooser = new HttpRequestMutator(random);
        for (int i = 0; i < count; i++) {
            // Every class at least once, then drawn; each case gets its own seed so the send order cannot change it.
            HttpFuzzClass kind = i < HttpFuzzClass.values().length ? HttpFuzzClass.values()[i] : chooser.nextClass();
            boolean continuation = random.nextBoolean();
            plan.add(new Planned(kind, continuation, random.nextLong()));
        }
        Map<Integer, Sent> sent;
        boolean stillServing;
        HttpServerProcess server = (HttpServerProcess) FaultServers.wire(session, sdk, WireSettings.matrix(database, "alice"), folder,
                "server", CLIENT_READ_TIMEOUT, Map.of("WIRE_HTTP_READ_TIMEOUT_MS", Integer.toString(SERVER_READ_TIMEOUT_MS)));
        try {
            ToolClient.on(server).open();
            sent = sendAll(server, database, prefix, plan);
            session.history().sent(scope(), database, prefix + "final");
            stillServing = stillServing(server, prefix + "final");
            if (stillServing) {
                session.history().succeeded(scope(), database, prefix + "final");
            }
            session.history().expect(scope(), "a normal round one, continuation and status after the fuzz batch", "served",
                    stillServing ? "served" : "not served");
        } finally {
            server.close();
        }
        Tally tally = new Tally();
        try (BufferedWriter log = Files.newBufferedWriter(folder.resolve("cases.jsonl"), StandardCharsets.UTF_8)) {
            for (int i = 0; i < count; i++) {
                Sent one = sent.get(i);
                byClass.computeIfAbsent(one.fuzz().kind().label(), k -> new TreeMap<>()).merge(one.outcome().label(), 1, Integer::sum);
                tally.add(one);
                log.write(caseLine(one).toString());
                log.write('\n');
            }
        }
        ObjectNode figures = tally.figures(count).put("still_serving", stillServing);
        ObjectNode classes = figures.putObject("by_class");
        byClass.forEach((kind, labels) -> classes.put(kind, labels.toString()));
        return figures;
    }

    /** Every case sent by a few clients at once; by case number. */
    private Map<Integer, Sent> sendAll(HttpServerProcess server, Path database, String prefix, List<Planned> plan) throws Exception {
        Map<Integer, Sent> sent = new ConcurrentHashMap<>();
        String authorization = "Bearer " + session.credentials().token("alice");
        ExecutorService senders = Executors.newFixedThreadPool(SENDERS);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int i = 0; i < plan.size(); i++) {
                int n = i;
                Planned one = plan.get(n);
                futures.add(senders.submit(() -> {
                    sent.put(n, sendOne(server, authorization, database, n, prefix + n, one.kind(), one.continuation(), one.seed()));
                    return null;
                }));
            }
            for (Future<?> future : futures) {
                future.get();
            }
        } finally {
            senders.shutdownNow();
        }
        return sent;
    }

    private static ObjectNode caseLine(Sent one) {
        HttpFuzzCase fuzz = one.fuzz();
        HttpCall.Outcome outcome = one.outcome();
        ObjectNode line = JsonNodeFactory.instance.objectNode().put("n", one.n()).put("class", fuzz.kind().label())
                .put("variant", fuzz.variant()).put("continuation", fuzz.continuation()).put("operation_id", fuzz.operationId())
                .put("request_line", fuzz.requestLine()).put("body_bytes", fuzz.body().length).put("outcome", outcome.label());
        if (!outcome.answered()) {
            line.put("ended", outcome.ended());
        }
        return line;
    }

    /** The batch's counts, for the table: figures only; the verdicts come from the history. */
    private static final class Tally {
        private int answered;
        private int unanswered;
        private int successes;
        private int acceptedMustRefuse;
        private int serverErrors;
        private int unavailable;
        private int wrongRequiredStatus;
        private int malformed;

        void add(Sent one) {
            HttpFuzzCase fuzz = one.fuzz();
            HttpCall.Outcome outcome = one.outcome();
            if (outcome.answered()) {
                answered++;
            } else {
                unanswered++;
                malformed += fuzz.mayGoUnanswered() ? 0 : 1;
            }
            if (outcome.success()) {
                successes++;
                acceptedMustRefuse += fuzz.kind().expect() == HttpFuzzClass.Expect.REFUSED ? 1 : 0;
            }
            if (outcome.answered() && outcome.status() == 503) {
                unavailable++;
            } else if (outcome.answered() && outcome.status() >= 500) {
                serverErrors++;
            }
            if (fuzz.requiredStatus() != 0 && outcome.answered() && outcome.status() != fuzz.requiredStatus()) {
                wrongRequiredStatus++;
            }
            if (outcome.answered() && outcome.status() / 100 == 2 && outcome.reply() == null
                    && !fuzz.requestLine().startsWith("HEAD ") && !fuzz.requestLine().startsWith("OPTIONS ")) {
                malformed++;
            }
        }

        ObjectNode figures(int count) {
            return JsonNodeFactory.instance.objectNode().put("requests", count).put("answered", answered).put("no_response", unanswered)
                    .put("successes", successes).put("accepted_must_refuse", acceptedMustRefuse).put("malformed_answers", malformed)
                    .put("server_errors_not_503", serverErrors).put("status_503", unavailable).put("wrong_required_status", wrongRequiredStatus);
        }
    }

    private Sent sendOne(HttpServerProcess server, String authorization, Path database, int n, String operationId, HttpFuzzClass kind,
            boolean continuation, long seed) throws Exception {
        ObjectNode arguments = ToolClient.arguments(operationId, "http fuzz " + n, "atomic");
        String state = continuation ? ToolClient.on(server).roundOne(arguments) : null;
        ObjectNode frame = JsonNodeFactory.instance.objectNode();
        frame.put("jsonrpc", "2.0");
        frame.put("id", 10_000_000L + n);
        frame.put("method", "tools/call");
        frame.set("params", HttpCall.createParams(arguments, state, "fuzz answer " + n));
        HttpRequestMutator.Base base = new HttpRequestMutator.Base(server.exchanges().host(), authorization, continuation, operationId, frame);
        HttpFuzzCase fuzz = new HttpRequestMutator(new Random(seed)).mutate(kind, base);
        HttpCall.Outcome outcome;
        if (kind.expect() == HttpFuzzClass.Expect.REFUSED) {
            session.history().sentMustRefuse(scope(), database, operationId);
        } else {
            session.history().sent(scope(), database, operationId);
        }
        try {
            outcome = HttpCall.Outcome.of(server.exchanges().exchangeAsIs(fuzz.requestLine(), fuzz.headers(), fuzz.body()));
        } catch (HttpExchanges.NoResponse none) {
            outcome = HttpCall.Outcome.none(none);
        }
        Sent one = new Sent(n, fuzz, outcome);
        record(database, one);
        return one;
    }

    /** The answer as the wire gave it, and the values the design fixes for this case next to what came. */
    private void record(Path database, Sent one) {
        HttpFuzzCase fuzz = one.fuzz();
        HttpCall.Outcome outcome = one.outcome();
        String label = outcome.label();
        FaultEvent.Outcome answer = !outcome.answered() ? FaultEvent.Outcome.LOST
                : outcome.success() ? FaultRecorder.outcomeOf(outcome.reply().path("result")) : FaultEvent.Outcome.REFUSED;
        session.history().answeredOverHttp(scope(), database, fuzz.operationId(), answer, outcome.answered() ? outcome.status() : null,
                label);
        if (!fuzz.mayGoUnanswered()) {
            session.history().expect(scope(), describe(one) + ": a response", "an HTTP response",
                    outcome.answered() ? "an HTTP response" : "none: " + outcome.ended());
        }
        if (fuzz.requiredStatus() != 0 && outcome.answered()) {
            session.history().expect(scope(), describe(one) + ": status", fuzz.requiredStatus(), outcome.status());
        }
        if (outcome.answered() && outcome.status() / 100 == 2 && !fuzz.requestLine().startsWith("HEAD ")
                && !fuzz.requestLine().startsWith("OPTIONS ")) {
            session.history().expect(scope(), describe(one) + ": the body of a 2xx", "a JSON-RPC reply",
                    outcome.reply() == null ? "none" : "a JSON-RPC reply");
        }
    }

    private String scope() {
        return session.scope(sdk);
    }

    /** A normal round one, continuation and status after everything: the server must still serve. */
    private static boolean stillServing(HttpServerProcess server, String operationId) {
        try {
            ToolClient client = ToolClient.on(server);
            ObjectNode arguments = ToolClient.arguments(operationId, "http fuzz final", "atomic");
            Reply reply = client.commit(arguments, client.roundOne(arguments), "final answer");
            return reply.isSuccess() && "applied".equals(client.status(operationId).structured().path("state").asText());
        } catch (Exception e) {
            return false;
        }
    }

    private static String describe(Sent one) {
        return one.fuzz().kind().label() + " (" + one.fuzz().variant() + (one.fuzz().continuation() ? ", continuation" : ", round one")
                + ", #" + one.n() + ")";
    }
}
