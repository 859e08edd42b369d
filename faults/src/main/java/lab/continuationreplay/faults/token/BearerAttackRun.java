package lab.continuationreplay.faults.token;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import lab.continuationreplay.core.client.ToolClient;
import lab.continuationreplay.core.servers.BearerCredentials;
import lab.continuationreplay.core.servers.ServerKind;
import lab.continuationreplay.core.wire.HttpExchanges;
import lab.continuationreplay.core.wire.HttpServerProcess;
import lab.continuationreplay.core.wire.TransportFailure;
import lab.continuationreplay.faults.common.HttpCall;
import lab.continuationreplay.faults.FaultRecorder;
import lab.continuationreplay.history.FaultEvent;
import lab.continuationreplay.history.HttpHead.Header;
import lab.continuationreplay.history.Reply;

/**
 * The bearer attacks on one SDK's main HTTP server (alice and bob hold tokens): missing, unknown and malformed
 * credentials, the other principal's token on a state, foreign {@code Host} and {@code Origin}. Judged from the HTTP
 * answer and from the main database: an operation has a row only if its request was answered with a success.
 */
final class BearerAttackRun {

    private final ServerKind sdk;
    private final FaultRecorder history;
    private final String scope;
    private final Path folder;
    private final Random random;
    private final HttpServerProcess main;
    private final BearerCredentials credentials;
    private final List<String> observations = new ArrayList<>();
    private final Map<String, Map<String, Integer>> outcomes = new TreeMap<>();
    private long sequence;

    BearerAttackRun(ServerKind sdk, FaultRecorder history, String scope, Path folder, Random random, HttpServerProcess main,
            BearerCredentials credentials) {
        this.sdk = sdk;
        this.history = history;
        this.scope = scope;
        this.folder = folder;
        this.random = random;
        this.main = main;
        this.credentials = credentials;
    }

    List<String> observations() {
        return observations;
    }

    /** {@code each} attacks of every kind; returns the figures. */
    ObjectNode attack(int each) throws Exception {
        Path database = folder.resolve("main.sqlite3");
        history.ledger(scope, database, "ba-" + sdk.label() + "-");
        int accepted = 0;
        int missingChallenge = 0;
        int sent = 0;
        try (BufferedWriter log = Files.newBufferedWriter(folder.resolve("bearer-attacks.jsonl"), StandardCharsets.UTF_8)) {
            for (int round = 0; round < each; round++) {
                for (BearerAttack attack : BearerAttack.values()) {
                    String operationId = "ba-" + sdk.label() + "-" + attack.label() + "-" + round;
                    boolean write = attack != BearerAttack.BOB_READS_ALICE_STATUS;
                    if (write && attack.expect() != BearerAttack.Expect.NOT_APPLIED && attack.expect() != BearerAttack.Expect.RECORDED) {
                        history.sentMustRefuse(scope, database, operationId);
                    } else if (write) {
                        history.sent(scope, database, operationId);
                    }
                    HttpCall.Outcome outcome = send(attack, operationId);
                    if (write) {
                        history.answeredOverHttp(scope, database, operationId, !outcome.answered() ? FaultEvent.Outcome.LOST
                                : outcome.success() ? FaultRecorder.outcomeOf(outcome.reply().path("result")) : FaultEvent.Outcome.REFUSED,
                                outcome.answered() ? outcome.status() : null, outcome.label());
                    }
                    sent++;
                    String label = attack == BearerAttack.BOB_READS_ALICE_STATUS && outcome.success()
                            ? outcome.label() + ", state " + outcome.reply().path("result").path("structuredContent").path("state").asText("?")
                            : outcome.label();
                    outcomes.computeIfAbsent(attack.label(), k -> new TreeMap<>()).merge(label, 1, Integer::sum);
                    String verdict = judge(attack, outcome);
                    if (verdict.equals("accepted")) {
                        accepted++;
                    }
                    if (verdict.equals("no challenge")) {
                        missingChallenge++;
                    }
                    ObjectNode line = JsonNodeFactory.instance.objectNode().put("attack", attack.label()).put("operation_id", operationId)
                            .put("outcome", label).put("verdict", verdict);
                    log.write(line.toString());
                    log.write('\n');
                }
            }
        }
        recordDifferences();
        ObjectNode figures = JsonNodeFactory.instance.objectNode();
        figures.put("attacks", sent).put("accepted", accepted).put("401_without_bearer_challenge", missingChallenge);
        ObjectNode byAttack = figures.putObject("by_attack");
        outcomes.forEach((attack, labels) -> byAttack.put(attack, labels.toString()));
        return figures;
    }

    /** {@code ok}, {@code accepted} (a forgery), {@code no challenge}, {@code wrong answer} or {@code recorded}. */
    private String judge(BearerAttack attack, HttpCall.Outcome outcome) {
        String verdict = verdict(attack, outcome);
        String expected = switch (attack.expect()) {
            case UNAUTHORIZED -> "401 with WWW-Authenticate: Bearer";
            case FORBIDDEN -> "403";
            case STATE_REFUSAL -> "-32602 invalid_request_state";
            case NOT_APPLIED -> "not applied";
            default -> null;
        };
        if (expected != null) {
            history.expect(scope, attack.label(), expected, verdict.equals("ok") ? expected
                    : verdict.equals("accepted") ? "accepted: " + outcome.label() : verdict + ": " + outcome.label() + challenge(outcome));
        }
        return verdict;
    }

    private static String challenge(HttpCall.Outcome outcome) {
        return outcome.answered() && outcome.status() == 401 ? " (WWW-Authenticate: " + outcome.response().header("WWW-Authenticate") + ")" : "";
    }

    private String verdict(BearerAttack attack, HttpCall.Outcome outcome) {
        switch (attack.expect()) {
            case UNAUTHORIZED -> {
                if (outcome.success()) {
                    return "accepted";
                }
                if (outcome.status() != 401) {
                    return "wrong answer";
                }
                String challenge = outcome.response().header("WWW-Authenticate");
                if (challenge == null || !challenge.regionMatches(true, 0, "Bearer", 0, 6)) {
                    return "no challenge";
                }
                return "ok";
            }
            case FORBIDDEN -> {
                if (outcome.success()) {
                    return "accepted";
                }
                if (outcome.status() != 403) {
                    return "wrong answer";
                }
                return "ok";
            }
            case STATE_REFUSAL -> {
                if (outcome.success()) {
                    return "accepted";
                }
                if (outcome.reply() == null || !new Reply((ObjectNode) outcome.reply()).isStateRefusal()) {
                    return "wrong answer";
                }
                return "ok";
            }
            case NOT_APPLIED -> {
                boolean leaked = outcome.success() && outcome.reply().path("result").path("structuredContent").path("state").asText("")
                        .equals("applied");
                if (leaked) {
                    return "accepted";
                }
                return "ok";
            }
            default -> {
                return "recorded";
            }
        }
    }

    private HttpCall.Outcome send(BearerAttack attack, String operationId) throws Exception {
        String alice = credentials.token("alice");
        String bob = credentials.token("bob");
        ObjectNode arguments = ToolClient.arguments(operationId, "bearer attack " + operationId, "atomic");
        List<Header> headers = main.headers("tools/call", ToolClient.CREATE);
        byte[] body;
        if (attack == BearerAttack.ALICE_CONTINUES_BOB) {
            String bobState = roundOneAs(bob, arguments);
            body = HttpCall.frame(next(), "tools/call", HttpCall.createParams(arguments, bobState, "bearer body"));
        } else if (attack == BearerAttack.BOB_READS_ALICE_STATUS) {
            ToolClient client = ToolClient.on(main);
            String state = client.roundOne(arguments);
            client.commit(arguments, state, "alice's own body");
            ObjectNode params = JsonNodeFactory.instance.objectNode().put("name", ToolClient.STATUS);
            params.putObject("arguments").put("operation_id", operationId);
            params.set("_meta", lab.continuationreplay.core.wire.WireEnvelope.meta());
            body = HttpCall.frame(next(), "tools/call", params);
            headers = HttpCall.with(main.headers("tools/call", ToolClient.STATUS), "Authorization", "Bearer " + bob);
            return exchange(headers, body);
        } else {
            String state = ToolClient.on(main).roundOne(arguments);
            body = HttpCall.frame(next(), "tools/call", HttpCall.createParams(arguments, state, "bearer body"));
        }
        headers = switch (attack) {
            case NO_AUTHORIZATION -> HttpCall.without(headers, "Authorization");
            case UNKNOWN_TOKEN -> HttpCall.with(headers, "Authorization", "Bearer " + unknownToken());
            case EMPTY_BEARER -> HttpCall.with(headers, "Authorization", "Bearer ");
            case TOKEN_PREFIX -> HttpCall.with(headers, "Authorization", "Bearer " + alice.substring(0, alice.length() - 1));
            case TOKEN_EXTENDED -> HttpCall.with(headers, "Authorization", "Bearer " + alice + "A");
            case BASIC_SCHEME -> HttpCall.with(headers, "Authorization",
                    "Basic " + Base64.getEncoder().encodeToString(("alice:" + alice).getBytes(StandardCharsets.UTF_8)));
            case LOWERCASE_SCHEME -> HttpCall.with(headers, "Authorization", "bearer " + alice);
            case BOB_CONTINUES_ALICE -> HttpCall.with(headers, "Authorization", "Bearer " + bob);
            case TWO_AUTHORIZATIONS -> HttpCall.plus(headers, "Authorization", new Header("Authorization", "Bearer " + bob));
            case NULL_ORIGIN -> HttpCall.plus(headers, "Authorization", new Header("Origin", "null"));
            case FOREIGN_ORIGIN -> HttpCall.plus(headers, "Authorization", new Header("Origin", "http://attacker.example"));
            default -> headers;
        };
        if (attack == BearerAttack.FOREIGN_HOST) {
            return exchangeAsIs(headers, "attacker.example", body);
        }
        return exchange(headers, body);
    }

    private String roundOneAs(String token, ObjectNode arguments) throws Exception {
        List<Header> headers = HttpCall.with(main.headers("tools/call", ToolClient.CREATE), "Authorization", "Bearer " + token);
        HttpCall.Outcome outcome = exchange(headers, HttpCall.frame(next(), "tools/call", HttpCall.createParams(arguments, null, null)));
        Reply reply = outcome.reply() == null ? null : new Reply((ObjectNode) outcome.reply());
        if (reply == null || !reply.inputRequired()) {
            throw new IllegalStateException(sdk.label() + ": round one as another principal did not ask for input: " + outcome.label());
        }
        return reply.requestState();
    }

    private HttpCall.Outcome exchange(List<Header> headers, byte[] body) throws TransportFailure {
        try {
            return HttpCall.Outcome.of(main.exchanges().exchange("POST", headers, body));
        } catch (HttpExchanges.NoResponse none) {
            return HttpCall.Outcome.none(none);
        }
    }

    /** As a client would, but with another {@code Host}: the request line and every header written as given. */
    private HttpCall.Outcome exchangeAsIs(List<Header> headers, String host, byte[] body) throws TransportFailure {
        List<Header> all = new ArrayList<>();
        all.add(new Header("Host", host));
        all.addAll(headers);
        all.add(new Header("Content-Length", Integer.toString(body.length)));
        all.add(new Header("Connection", "close"));
        try {
            return HttpCall.Outcome.of(main.exchanges().exchangeAsIs("POST " + main.exchanges().endpoint().getRawPath() + " HTTP/1.1",
                    all, body));
        } catch (HttpExchanges.NoResponse none) {
            return HttpCall.Outcome.none(none);
        }
    }

    /** The same shape as a real token (43 base64url characters), from the seeded source: no principal has it. */
    private String unknownToken() {
        byte[] bytes = new byte[32];
        random.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    private long next() {
        return 900_000 + ++sequence;
    }

    /** What the defensible-either-way attacks got, one line each: these are the answers worth comparing across SDKs. */
    private void recordDifferences() {
        for (BearerAttack attack : BearerAttack.values()) {
            if (attack.expect() == BearerAttack.Expect.RECORDED || attack == BearerAttack.BASIC_SCHEME
                    || attack == BearerAttack.BOB_CONTINUES_ALICE || attack == BearerAttack.BOB_READS_ALICE_STATUS) {
                observations.add(sdk.label() + " over HTTP, " + attack.description() + ": " + outcomes.get(attack.label()));
            }
        }
    }
}
