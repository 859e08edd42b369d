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
import lab.continuationreplay.faults.FaultSession;
import lab.continuationreplay.faults.common.EffectCheck;
import lab.continuationreplay.faults.common.FaultServers;
import lab.continuationreplay.faults.common.HttpCall;
import lab.continuationreplay.history.Reply;

/** The HTTP fuzzing of one SDK's server: one long-lived server, the cases sent by a few clients at once, then the rows. */
final class HttpFuzzRun {
    /** Short, so requests that never complete end soon; the lab waits longer than the server. */
    static final int SERVER_READ_TIMEOUT_MS = 2000;
    private static final Duration CLIENT_READ_TIMEOUT = Duration.ofSeconds(10);
    private static final int SENDERS = 8;
    private static final int MAX_FINDINGS = 30;

    /** One case as sent and answered. */
    record Sent(int n, HttpFuzzCase fuzz, HttpCall.Outcome outcome) {}

    private final FaultSession session;
    private final ServerKind sdk;
    private final Path folder;
    private final Random random;
    private final List<String> findings = new ArrayList<>();
    private final Map<String, Map<String, Integer>> byClass = new TreeMap<>();

    HttpFuzzRun(FaultSession session, ServerKind sdk, Path folder, Random random) {
        this.session = session;
        this.sdk = sdk;
        this.folder = folder;
        this.random = random;
    }

    List<String> findings() {
        return findings;
    }

    /** Statuses by class: class label, then outcome label → count. */
    Map<String, Map<String, Integer>> byClass() {
        return byClass;
    }

    ObjectNode fuzz(int count) throws Exception {
        Path database = folder.resolve("store.sqlite3");
        String prefix = "hf-" + sdk.label() + "-";
        List<HttpFuzzClass> kinds = new ArrayList<>();
        List<Boolean> continuations = new ArrayList<>();
        List<Long> seeds = new ArrayList<>();
        HttpRequestMutator chooser = new HttpRequestMutator(random);
        for (int i = 0; i < count; i++) {
            // Every class at least once, then drawn; each case gets its own seed so the send order cannot change it.
            kinds.add(i < HttpFuzzClass.values().length ? HttpFuzzClass.values()[i] : chooser.nextClass());
            continuations.add(random.nextBoolean());
            seeds.add(random.nextLong());
        }
        Map<Integer, Sent> sent = new ConcurrentHashMap<>();
        boolean stillServing;
        HttpServerProcess server = (HttpServerProcess) FaultServers.wire(session, sdk, WireSettings.matrix(database, "alice"), folder,
                "server", CLIENT_READ_TIMEOUT, Map.of("WIRE_HTTP_READ_TIMEOUT_MS", Integer.toString(SERVER_READ_TIMEOUT_MS)));
        try {
            ToolClient.on(server).open();
            String authorization = "Bearer " + session.credentials().token("alice");
            ExecutorService senders = Executors.newFixedThreadPool(SENDERS);
            try {
                List<Future<?>> futures = new ArrayList<>();
                for (int i = 0; i < count; i++) {
                    int n = i;
                    futures.add(senders.submit(() -> {
                        sent.put(n, sendOne(server, authorization, n, prefix + n, kinds.get(n), continuations.get(n), seeds.get(n)));
                        return null;
                    }));
                }
                for (Future<?> future : futures) {
                    future.get();
                }
            } finally {
                senders.shutdownNow();
            }
            stillServing = stillServing(server, prefix + "final");
        } finally {
            server.close();
        }

        Map<String, Boolean> succeeded = new TreeMap<>();
        int answered = 0;
        int unanswered = 0;
        int successes = 0;
        int acceptedMustRefuse = 0;
        int serverErrors = 0;
        int unavailable = 0;
        int wrongRequiredStatus = 0;
        int malformed = 0;
        try (BufferedWriter log = Files.newBufferedWriter(folder.resolve("cases.jsonl"), StandardCharsets.UTF_8)) {
            for (int i = 0; i < count; i++) {
                Sent one = sent.get(i);
                HttpFuzzCase fuzz = one.fuzz();
                HttpCall.Outcome outcome = one.outcome();
                String label = outcome.label();
                byClass.computeIfAbsent(fuzz.kind().label(), k -> new TreeMap<>()).merge(label, 1, Integer::sum);
                succeeded.put(fuzz.operationId(), outcome.success());
                if (outcome.answered()) {
                    answered++;
                } else {
                    unanswered++;
                    if (!fuzz.mayGoUnanswered()) {
                        malformed++;
                        finding("no HTTP response to " + describe(one) + ": " + outcome.ended());
                    }
                }
                if (outcome.success()) {
                    successes++;
                    if (fuzz.kind().expect() == HttpFuzzClass.Expect.REFUSED) {
                        acceptedMustRefuse++;
                        finding("ACCEPTED " + describe(one) + ": " + label);
                    }
                }
                if (outcome.answered() && outcome.status() == 503) {
                    unavailable++;
                } else if (outcome.answered() && outcome.status() >= 500) {
                    serverErrors++;
                    finding("a server error to " + describe(one) + ": " + label);
                }
                if (fuzz.requiredStatus() != 0 && outcome.answered() && outcome.status() != fuzz.requiredStatus()) {
                    wrongRequiredStatus++;
                    finding(describe(one) + ": " + label + ", expected " + fuzz.requiredStatus());
                }
                if (outcome.answered() && outcome.status() / 100 == 2 && outcome.reply() == null
                        && !fuzz.requestLine().startsWith("HEAD ") && !fuzz.requestLine().startsWith("OPTIONS ")) {
                    malformed++;
                    finding("a 2xx without a JSON-RPC reply to " + describe(one) + ": " + label);
                }
                ObjectNode line = JsonNodeFactory.instance.objectNode().put("n", i).put("class", fuzz.kind().label())
                        .put("variant", fuzz.variant()).put("continuation", fuzz.continuation()).put("operation_id", fuzz.operationId())
                        .put("request_line", fuzz.requestLine()).put("body_bytes", fuzz.body().length).put("outcome", label);
                if (!outcome.answered()) {
                    line.put("ended", outcome.ended());
                }
                log.write(line.toString());
                log.write('\n');
            }
        }
        succeeded.put(prefix + "final", stillServing);
        EffectCheck.Result effects = EffectCheck.check(session.ledger(), database, succeeded, prefix);
        effects.violations().forEach(this::finding);
        if (!stillServing) {
            finding("the server did not serve a normal round one, continuation and status after the fuzz batch");
        }
        ObjectNode figures = JsonNodeFactory.instance.objectNode();
        figures.put("requests", count).put("answered", answered).put("no_response", unanswered).put("successes", successes)
                .put("accepted_must_refuse", acceptedMustRefuse).put("malformed_answers", malformed).put("server_errors_not_503", serverErrors)
                .put("status_503", unavailable).put("wrong_required_status", wrongRequiredStatus).put("effects", effects.rows())
                .put("effects_from_refused", effects.effectsFromRefused()).put("duplicates", effects.duplicateIssues())
                .put("still_serving", stillServing);
        ObjectNode classes = figures.putObject("by_class");
        byClass.forEach((kind, labels) -> classes.put(kind, labels.toString()));
        return figures;
    }

    private Sent sendOne(HttpServerProcess server, String authorization, int n, String operationId, HttpFuzzClass kind,
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
        try {
            outcome = HttpCall.Outcome.of(server.exchanges().exchangeAsIs(fuzz.requestLine(), fuzz.headers(), fuzz.body()));
        } catch (HttpExchanges.NoResponse none) {
            outcome = HttpCall.Outcome.none(none);
        }
        return new Sent(n, fuzz, outcome);
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

    private void finding(String text) {
        if (findings.size() < MAX_FINDINGS) {
            findings.add(sdk.label() + ": " + text);
        } else if (findings.size() == MAX_FINDINGS) {
            findings.add(sdk.label() + ": more findings in cases.jsonl");
        }
    }
}
