package lab.continuationreplay.faults.token;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
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
import lab.continuationreplay.faults.common.FaultLedger;
import lab.continuationreplay.faults.common.LedgerRows;
import lab.continuationreplay.history.HttpHead.Header;
import lab.continuationreplay.history.Reply;

/**
 * The bearer attacks on one SDK's main HTTP server (alice and bob hold tokens): missing, unknown and malformed
 * credentials, the other principal's token on a state, foreign {@code Host} and {@code Origin}. Judged from the HTTP
 * answer and from the main database: an operation has a row only if its request was answered with a success.
 */
final class BearerAttackRun {
    private static final int MAX_FINDINGS = 20;

    private final ServerKind sdk;
    private final FaultLedger ledger;
    private final Path folder;
    private final Random random;
    private final HttpServerProcess main;
    private final BearerCredentials credentials;
    private final List<String> findings = new ArrayList<>();
    private final List<String> observations = new ArrayList<>();
    private final Map<String, Map<String, Integer>> outcomes = new TreeMap<>();
    private long sequence;

    BearerAttackRun(ServerKind sdk, FaultLedger ledger, Path folder, Random random, HttpServerProcess main,
            BearerCredentials credentials) {
        this.sdk = sdk;
        this.ledger = ledger;
        this.folder = folder;
        this.random = random;
        this.main = main;
        this.credentials = credentials;
    }

    List<String> findings() {
        return findings;
    }

    List<String> observations() {
        return observations;
    }

    /** {@code each} attacks of every kind; returns the figures. */
    ObjectNode attack(int each) throws Exception {
        Path database = folder.resolve("main.sqlite3");
        Map<String, Boolean> succeededByOperation = new LinkedHashMap<>();
        int accepted = 0;
        int missingChallenge = 0;
        int sent = 0;
        try (BufferedWriter log = Files.newBufferedWriter(folder.resolve("bearer-attacks.jsonl"), StandardCharsets.UTF_8)) {
            for (int round = 0; round < each; round++) {
                for (BearerAttack attack : BearerAttack.values()) {
                    String operationId = "ba-" + sdk.label() + "-" + attack.label() + "-" + round;
                    HttpCall.Outcome outcome = send(attack, operationId);
                    sent++;
                    String label = attack == BearerAttack.BOB_READS_ALICE_STATUS && outcome.success()
                            ? outcome.label() + ", state " + outcome.reply().path("result").path("structuredContent").path("state").asText("?")
                            : outcome.label();
                    outcomes.computeIfAbsent(attack.label(), k -> new TreeMap<>()).merge(label, 1, Integer::sum);
                    if (attack != BearerAttack.BOB_READS_ALICE_STATUS) {
                        succeededByOperation.put(operationId, outcome.success());
                    }
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
        Map<String, String> rows = LedgerRows.operations(ledger, database);
        long effectsFromRefused = 0;
        long lostSuccesses = 0;
        for (Map.Entry<String, Boolean> operation : succeededByOperation.entrySet()) {
            boolean hasRow = rows.containsKey(operation.getKey());
            if (hasRow && !operation.getValue()) {
                effectsFromRefused++;
                finding("a row for refused " + operation.getKey() + ": " + rows.get(operation.getKey()));
            } else if (!hasRow && operation.getValue()) {
                lostSuccesses++;
                finding("answered with a success but no row: " + operation.getKey());
            }
        }
        recordDifferences();
        ObjectNode figures = JsonNodeFactory.instance.objectNode();
        figures.put("attacks", sent).put("accepted", accepted).put("effects_from_refused", effectsFromRefused)
                .put("successes_without_row", lostSuccesses).put("401_without_bearer_challenge", missingChallenge);
        ObjectNode byAttack = figures.putObject("by_attack");
        outcomes.forEach((attack, labels) -> byAttack.put(attack, labels.toString()));
        return figures;
    }

    /** {@code ok}, {@code accepted} (a forgery), {@code no challenge}, {@code wrong answer} or {@code recorded}. */
    private String judge(BearerAttack attack, HttpCall.Outcome outcome) {
        switch (attack.expect()) {
            case UNAUTHORIZED -> {
                if (outcome.success()) {
                    finding("ACCEPTED " + attack.label() + ": " + outcome.label());
                    return "accepted";
                }
                if (outcome.status() != 401) {
                    finding(attack.label() + ": " + outcome.label() + ", expected 401");
                    return "wrong answer";
                }
                String challenge = outcome.response().header("WWW-Authenticate");
                if (challenge == null || !challenge.regionMatches(true, 0, "Bearer", 0, 6)) {
                    finding(attack.label() + ": 401 without WWW-Authenticate: Bearer (" + challenge + ")");
                    return "no challenge";
                }
                return "ok";
            }
            case FORBIDDEN -> {
                if (outcome.success()) {
                    finding("ACCEPTED " + attack.label() + ": " + outcome.label());
                    return "accepted";
                }
                if (outcome.status() != 403) {
                    finding(attack.label() + ": " + outcome.label() + ", expected 403");
                    return "wrong answer";
                }
                return "ok";
            }
            case STATE_REFUSAL -> {
                if (outcome.success()) {
                    finding("ACCEPTED " + attack.label() + ": " + outcome.label());
                    return "accepted";
                }
                if (outcome.reply() == null || !new Reply((ObjectNode) outcome.reply()).isStateRefusal()) {
                    finding(attack.label() + ": " + outcome.label() + ", expected -32602 invalid_request_state");
                    return "wrong answer";
                }
                return "ok";
            }
            case NOT_APPLIED -> {
                boolean leaked = outcome.success() && outcome.reply().path("result").path("structuredContent").path("state").asText("")
                        .equals("applied");
                if (leaked) {
                    finding("ACCEPTED " + attack.label() + ": bob sees alice's applied operation");
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

    private void finding(String text) {
        if (findings.size() < MAX_FINDINGS) {
            findings.add(sdk.label() + " bearer: " + text);
        }
    }
}
