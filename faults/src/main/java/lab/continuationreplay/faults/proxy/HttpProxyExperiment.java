package lab.continuationreplay.faults.proxy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import lab.continuationreplay.core.client.ToolClient;
import lab.continuationreplay.core.wire.HttpRelay;
import lab.continuationreplay.core.servers.ServerKind;
import lab.continuationreplay.core.servers.Transport;
import lab.continuationreplay.core.servers.WireSettings;
import lab.continuationreplay.core.wire.HttpExchanges;
import lab.continuationreplay.core.wire.HttpServerProcess;
import lab.continuationreplay.core.wire.ServerProcess;
import lab.continuationreplay.faults.ExperimentReport;
import lab.continuationreplay.faults.FaultExperiment;
import lab.continuationreplay.faults.FaultSession;
import lab.continuationreplay.faults.common.FaultServers;
import lab.continuationreplay.faults.common.HttpCall;
import lab.continuationreplay.history.Reply;
import lab.continuationreplay.history.Transcript;
import lab.continuationreplay.vectors.ExactJson;

/**
 * A cutting HTTP proxy ({@link HttpRelay} with a seeded {@link RelayPlan}) between the driver and each SDK's HTTP
 * server drops responses, resets connections halfway through a response, delays requests and sends requests twice.
 * After each lost reply the client asks for the status and, when the operation is not applied, sends the exact same
 * continuation again. The rows must show no duplicate and no effect the client was told about lost; the server must
 * still serve.
 */
public final class HttpProxyExperiment implements FaultExperiment {
    public static final String NAME = "http-proxy";
    private static final int ATTEMPTS = 12;
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(5);

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String title() {
        return "cutting HTTP proxy (drop the response, reset mid-response, delay, duplicate): recover by status or exact replay,"
                + " no duplicate, no lost effect";
    }

    @Override
    public Set<Transport> transports() {
        return Set.of(Transport.HTTP);
    }

    @Override
    public ExperimentReport run(FaultSession session) throws Exception {
        ObjectNode figures = ExactJson.mapper().createObjectNode();
        java.util.Random random = session.random(NAME);
        for (ServerKind sdk : session.sdks()) {
            figures.set(sdk.label(), new Run(session, sdk, random.nextLong()).drive(session.size(25, 200)));
        }
        return new ExperimentReport(NAME, title(), true, figures, List.of(), List.of(), Transport.HTTP.label(), 0);
    }

    /** One SDK behind the relay. */
    private static final class Run {
        private final FaultSession session;
        private final ServerKind sdk;
        private final long seed;
        private Path database;
        private HttpExchanges client;
        private List<lab.continuationreplay.history.HttpHead.Header> createHeaders;
        private List<lab.continuationreplay.history.HttpHead.Header> statusHeaders;
        private String serverHost;
        private long nextId = 1;
        private int lostReplies;
        private int recoveredByStatus;
        private int recoveredByReplay;
        private int replayedRepliesSeen;
        private int restarts;
        private int unresolved;

        Run(FaultSession session, ServerKind sdk, long seed) {
            this.session = session;
            this.sdk = sdk;
            this.seed = seed;
        }

        private String scope() {
            return session.scope(sdk);
        }

        ObjectNode drive(int operations) throws Exception {
            Path folder = session.folder(NAME, sdk.label());
            database = folder.resolve("store.sqlite3");
            session.history().ledger(scope(), database, "hp-" + sdk.label() + "-");
            RelayPlan plan = new RelayPlan(new java.util.Random(seed));
            List<String> toldApplied = new ArrayList<>();
            boolean stillServing;
            List<HttpRelay.Event> events;
            try (HttpServerProcess server = (HttpServerProcess) FaultServers.start(session, sdk, WireSettings.matrix(database, "alice"),
                    folder, "server", ServerProcess.READ_TIMEOUT);
                    Transcript relayTranscript = new Transcript(folder.resolve("relay.transcript.log"));
                    Transcript clientTranscript = new Transcript(folder.resolve("client.transcript.log"));
                    HttpRelay relay = HttpRelay.start(server.exchanges().endpoint(), relayTranscript, plan, READ_TIMEOUT,
                            session.credentials().principalsByToken())) {
                client = new HttpExchanges(relay.endpoint(), clientTranscript, READ_TIMEOUT, session.credentials().principalsByToken(),
                        sdk.label() + " client through the relay");
                serverHost = server.exchanges().host();
                createHeaders = server.headers("tools/call", ToolClient.CREATE);
                statusHeaders = server.headers("tools/call", ToolClient.STATUS);
                for (int k = 0; k < operations; k++) {
                    ObjectNode arguments = ToolClient.arguments("hp-" + sdk.label() + "-" + k, "http proxy " + k,
                            k % 5 == 4 ? "partial" : "atomic");
                    session.history().sent(scope(), database, arguments.path("operation_id").asText());
                    if (operate(arguments)) {
                        toldApplied.add(arguments.path("operation_id").asText());
                    }
                }
                events = relay.events();
                // Straight to the server, past the relay: is it still serving after all that?
                stillServing = ToolClient.on(server).status("hp-" + sdk.label() + "-0").isSuccess();
            }
            session.history().expect(scope(), "the server, asked past the relay at the end", "serving", stillServing ? "serving" : "not serving");
            session.history().expect(scope(), "operations the client could not settle in " + ATTEMPTS + " attempts", 0, unresolved);
            ObjectNode figures = JsonNodeFactory.instance.objectNode();
            Map<RelayPlan.Kind, Integer> counts = plan.counts();
            figures.put("exchanges", counts.values().stream().mapToInt(Integer::intValue).sum())
                    .put("forwarded", counts.get(RelayPlan.Kind.FORWARD))
                    .put("dropped", events.stream().filter(e -> e.action().equals("drop_response")).count())
                    .put("reset_mid_response", events.stream().filter(e -> e.action().equals("reset_mid_response")).count())
                    .put("delayed", events.stream().filter(e -> e.action().equals("delay")).count())
                    .put("duplicated", events.stream().filter(e -> e.action().equals("duplicate")).count())
                    .put("operations", operations).put("told_applied", toldApplied.size()).put("lost_replies", lostReplies)
                    .put("recovered_by_status", recoveredByStatus).put("recovered_by_replay", recoveredByReplay)
                    .put("replayed_replies_seen", replayedRepliesSeen).put("restarts", restarts).put("unresolved", unresolved)
                    .put("still_serving", stillServing);
            return figures;
        }

        /** Round one, then the continuation until the client knows the outcome; true if it learns the effect applied. */
        private boolean operate(ObjectNode arguments) throws Exception {
            String operationId = arguments.path("operation_id").asText();
            for (int start = 0; start < 3; start++) {
                String state = roundOne(arguments);
                if (state == null) {
                    break;
                }
                for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
                    Reply reply = call(createHeaders, HttpCall.createParams(arguments, state, "relay answer"));
                    if (reply == null) {
                        session.history().lost(scope(), database, operationId, "no reply through the relay");
                    } else if (reply.isSuccess()) {
                        session.history().succeeded(scope(), database, operationId);
                    } else {
                        session.history().refused(scope(), database, operationId, reply.refusalText());
                    }
                    if (reply != null && reply.isSuccess()) {
                        if (reply.structured().path("replayed").asBoolean(false)) {
                            replayedRepliesSeen++;
                        }
                        if (attempt > 0) {
                            recoveredByReplay++;
                        }
                        return true;
                    }
                    if (reply != null && reply.isStateRefusal()) {
                        restarts++;
                        break;
                    }
                    if (reply != null && !session.history().expect(scope(), operationId + ": a refusal", "operation_in_progress",
                            "operation_in_progress".equals(reply.mechanism()) ? reply.mechanism() : reply.mechanism() + ": " + reply.refusalText())) {
                        return false;
                    }
                    lostReplies++;
                    JsonNode status = status(operationId);
                    if (status != null && isEffect(status.path("state").asText())) {
                        recoveredByStatus++;
                        session.history().succeeded(scope(), database, operationId);
                        return true;
                    }
                    // not applied (or no authoritative answer): the exact same continuation again is safe, the ledger replays
                }
                if (start == 2) {
                    break;
                }
            }
            unresolved++;
            return false;
        }

        /** Round one has no effect: asked again until it arrives. */
        private String roundOne(ObjectNode arguments) throws Exception {
            for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
                Reply reply = call(createHeaders, HttpCall.createParams(arguments, null, null));
                if (reply != null && reply.inputRequired()) {
                    return reply.requestState();
                }
            }
            return null;
        }

        private JsonNode status(String operationId) throws Exception {
            ObjectNode params = JsonNodeFactory.instance.objectNode().put("name", ToolClient.STATUS);
            params.putObject("arguments").put("operation_id", operationId);
            params.set("_meta", lab.continuationreplay.core.wire.WireEnvelope.meta());
            for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
                Reply reply = call(statusHeaders, params);
                if (reply != null && reply.isSuccess() && reply.structured().path("operationId").asText().equals(operationId)
                        && reply.structured().path("authoritative").asBoolean(false)) {
                    return reply.structured();
                }
            }
            return null;
        }

        /** One POST through the relay; null when the reply was lost (no response, a cut one, or no JSON-RPC reply). */
        private Reply call(List<lab.continuationreplay.history.HttpHead.Header> headers, ObjectNode params) throws Exception {
            long id = nextId++;
            try {
                byte[] body = HttpCall.frame(id, "tools/call", params);
                // The Host the server expects, as a client sends through a proxy: the relay passes Host on as it is,
                // and the Java server's gate refuses a Host that names another port (the relay's) with 403.
                List<lab.continuationreplay.history.HttpHead.Header> all = new ArrayList<>();
                all.add(new lab.continuationreplay.history.HttpHead.Header("Host", serverHost));
                all.addAll(headers);
                all.add(new lab.continuationreplay.history.HttpHead.Header("Content-Length", Integer.toString(body.length)));
                all.add(new lab.continuationreplay.history.HttpHead.Header("Connection", "close"));
                HttpCall.Outcome outcome = HttpCall.Outcome.of(client.exchangeAsIs("POST " + client.endpoint().getRawPath() + " HTTP/1.1",
                        all, body));
                JsonNode reply = outcome.reply();
                if (reply == null || !reply.path("id").isIntegralNumber() || reply.path("id").asLong() != id) {
                    return null;
                }
                return new Reply((ObjectNode) reply);
            } catch (HttpExchanges.NoResponse lost) {
                return null;
            }
        }

        private static boolean isEffect(String state) {
            return "applied".equals(state) || "partial".equals(state);
        }
    }
}
