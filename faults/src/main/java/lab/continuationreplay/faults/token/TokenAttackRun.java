package lab.continuationreplay.faults.token;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import lab.continuationreplay.faults.FaultSession;
import lab.continuationreplay.faults.common.FaultServers;
import lab.continuationreplay.core.client.ToolClient;
import lab.continuationreplay.history.Reply;
import lab.continuationreplay.core.servers.ServerKind;
import lab.continuationreplay.core.servers.WireSettings;
import lab.continuationreplay.core.wire.ServerProcess;
import lab.continuationreplay.core.wire.ServerWire;
import lab.continuationreplay.core.wire.TransportFailure;
import lab.continuationreplay.vectors.ExactJson;

/** The attacks on one SDK's server: minting the material, sending each attack, judging the reply and the rows. */
final class TokenAttackRun {
    /** A token, the arguments it was minted for, and which server minted it (own, other-key, python, …). */
    record Minted(ObjectNode arguments, String token, String source) {}

    /** One attack: the tool called, the arguments sent, the requestState value sent, and where it goes. */
    record Attack(String kind, String variant, String tool, ObjectNode arguments, JsonNode requestState, ServerWire target) {}

    static final String OTHER_STATE_KEY_HEX = lab.continuationreplay.faults.FaultKeys.OTHER_STATE_KEY_HEX;

    private final FaultSession session;
    private final ServerKind sdk;
    private final Path folder;
    private final Random random;
    private final ServerWire main;
    private final Map<ServerKind, ServerWire> otherSdks;
    private final List<ServerWire> extra;
    private final TokenMutator mutator;
    private final TokenForge forge = new TokenForge(WireSettings.STATE_KEY_HEX);
    private final Map<ServerWire, Path> ledgers = new java.util.IdentityHashMap<>();
    private final Map<String, Integer> byKind = new TreeMap<>();
    private int accepted;
    private int wrongShape;
    private int noReply;
    private int sequence;

    TokenAttackRun(FaultSession session, ServerKind sdk, Path folder, Random random, ServerWire main, Map<ServerKind, ServerWire> otherSdks,
            List<ServerWire> extra) {
        this.session = session;
        this.sdk = sdk;
        this.folder = folder;
        this.random = random;
        this.main = main;
        this.otherSdks = otherSdks;
        this.extra = extra;
        this.mutator = new TokenMutator(random);
    }

    private String scope() {
        return session.scope(sdk);
    }

    ObjectNode attack(int count) throws Exception {
        WireSettings alice = WireSettings.matrix(folder.resolve("main.sqlite3"), "alice");
        ledgers.put(main, folder.resolve("main.sqlite3"));
        List<Minted> own = mint(main, "own", session.size(6, 12));
        // Tokens of every other SDK's server under the same state key: the Java server's and the Python SDK's share
        // a sealed format, so a Java token opens under Python's codec and must fail its claims instead.
        List<Minted> foreignSdk = new ArrayList<>();
        for (Map.Entry<ServerKind, ServerWire> other : otherSdks.entrySet()) {
            foreignSdk.addAll(mint(other.getValue(), other.getKey().label(), otherSdks.size() > 1 ? 2 : 3));
        }
        ServerWire otherKeyServer = start("other-key", new WireSettings(folder.resolve("other-key.sqlite3"), WireSettings.BACKEND,
                "alice", WireSettings.T0, 300, 360, 600, OTHER_STATE_KEY_HEX, WireSettings.FINGERPRINT_KEY_HEX, null));
        List<Minted> otherKey = mint(otherKeyServer, "other-key", 3);
        ServerWire bobServer = start("other-principal", WireSettings.matrix(folder.resolve("other-principal.sqlite3"), "bob"));
        List<Minted> otherPrincipal = mint(bobServer, "other-principal", 3);
        long later = WireSettings.T0 + alice.requestStateTtl() + 1 + random.nextInt(5000);
        ServerWire laterServer = start("later-clock", WireSettings.matrix(folder.resolve("later-clock.sqlite3"), "alice").at(later));
        // without the key, the forged-claims attacks would test only the seal
        session.history().expect(scope(), "the forge holds the server's key", true, forgeHoldsTheKey(own.get(0)));
        // every row of these ledgers under the prefix must be one the history sent: an attack is sent as must-refuse
        ledgers.values().forEach(database -> session.history().ledger(scope(), database, "ta-" + sdk.label() + "-"));
        try (BufferedWriter log = Files.newBufferedWriter(folder.resolve("attacks.jsonl"), StandardCharsets.UTF_8)) {
            for (int i = 0; i < count; i++) {
                Attack attack = next(own, foreignSdk, otherKey, otherPrincipal, laterServer, later);
                String outcome = send(attack);
                ObjectNode line = JsonNodeFactory.instance.objectNode().put("n", i).put("kind", attack.kind())
                        .put("variant", attack.variant()).put("tool", attack.tool());
                line.set("arguments", attack.arguments());
                line.set("requestState", attack.requestState());
                line.put("outcome", outcome);
                log.write(line.toString());
                log.write('\n');
            }
        }
        boolean controlCommitted = control();

        ObjectNode figures = JsonNodeFactory.instance.objectNode();
        figures.put("attacks", count);
        ObjectNode kinds = figures.putObject("by_kind");
        byKind.forEach(kinds::put);
        figures.put("accepted", accepted);
        figures.put("wrong_refusal_shape", wrongShape);
        figures.put("no_reply", noReply);
        figures.put("valid_control_committed", controlCommitted);
        return figures;
    }

    private Attack next(List<Minted> own, List<Minted> foreignSdk, List<Minted> otherKey, List<Minted> otherPrincipal,
            ServerWire laterServer, long later) throws Exception {
        Minted base = own.get(random.nextInt(own.size()));
        String token = base.token();
        int roll = random.nextInt(26);
        if (roll < 3) {
            return attack("bit-flip", "", base, text(mutator.bitFlip(token)));
        } else if (roll < 6) {
            return attack("byte-mutation", "", base, text(mutator.byteMutation(token)));
        } else if (roll < 8) {
            return attack("truncation", "", base, text(mutator.truncation(token)));
        } else if (roll < 10) {
            return attack("extension", "", base, text(mutator.extension(token)));
        } else if (roll < 13) {
            return attack("re-encoding", "", base, text(mutator.reEncoding(token)));
        } else if (roll < 14) {
            return attack("other-key", "", pick(otherKey), null);
        } else if (roll < 15) {
            return attack("other-principal", "", pick(otherPrincipal), null);
        } else if (roll < 16) {
            Minted foreign = pick(foreignSdk);
            return attack("other-sdk", foreign.source(), foreign, null);
        } else if (roll < 18) {
            return otherArguments(base);
        } else if (roll < 19) {
            ObjectNode status = JsonNodeFactory.instance.objectNode().put("operation_id", base.arguments().path("operation_id").asText());
            return new Attack("other-tool", "get_operation_status", ToolClient.STATUS, status, text(token), main);
        } else if (roll < 20) {
            return new Attack("expired", "clock " + (later - WireSettings.T0) + " s after issue", ToolClient.CREATE,
                    base.arguments(), text(token), laterServer);
        } else if (roll < 22) {
            return nonString(base);
        } else {
            return forged(base);
        }
    }

    private Attack attack(String kind, String variant, Minted base, JsonNode state) {
        return new Attack(kind, variant, ToolClient.CREATE, base.arguments(), state == null ? text(base.token()) : state, main);
    }

    private Attack otherArguments(Minted base) {
        ObjectNode changed = base.arguments().deepCopy();
        String variant;
        switch (random.nextInt(4)) {
            case 0 -> {
                changed.put("title", changed.path("title").asText() + "-changed");
                variant = "title";
            }
            case 1 -> {
                changed.put("operation_id", changed.path("operation_id").asText() + "-other");
                variant = "operation_id";
            }
            case 2 -> {
                changed.put("mode", "atomic".equals(changed.path("mode").asText()) ? "partial" : "atomic");
                variant = "mode";
            }
            default -> {
                changed.put("title", changed.path("title").asText().toUpperCase(java.util.Locale.ROOT));
                variant = "title case";
            }
        }
        return new Attack("other-arguments", variant, ToolClient.CREATE, changed, text(base.token()), main);
    }

    private Attack nonString(Minted base) {
        JsonNodeFactory json = JsonNodeFactory.instance;
        JsonNode value = switch (random.nextInt(7)) {
            case 0 -> json.numberNode(random.nextInt());
            case 1 -> json.numberNode(1.5);
            case 2 -> json.booleanNode(random.nextBoolean());
            case 3 -> json.objectNode();
            case 4 -> json.objectNode().put("v", 1).put("token", base.token());
            case 5 -> json.arrayNode().add(base.token());
            default -> json.arrayNode();
        };
        return new Attack("non-string", value.getNodeType().name().toLowerCase(java.util.Locale.ROOT), ToolClient.CREATE,
                base.arguments(), value, main);
    }

    /** A token sealed or signed with the right key whose claims are wrong in one way, in the SDK's own format. */
    private Attack forged(Minted base) throws Exception {
        return switch (sdk) {
            case JAVA -> forgedJava(base);
            case PYTHON -> forgedPython(base);
            case GO -> forgedGo(base);
            case RUST -> forgedRust(base);
            default -> forgedTypeScript(base);
        };
    }

    /**
     * One claim of the Java SDK's envelope (which the Python SDK's boundary also writes) bent for {@code pick} 0..7,
     * naming the variant; {@code null} for any other pick, which each format bends its own way.
     */
    private String bendEnvelope(ObjectNode claims, int pick, long now) {
        String variant = null;
        switch (pick) {
            case 0 -> { claims.put("t", ToolClient.STATUS); variant = "tool"; }
            case 1 -> { claims.put("m", "prompts/get"); variant = "method"; }
            case 2 -> { claims.put("aud", "another-server"); variant = "audience"; }
            case 3 -> { claims.put("iat", now + 61 + random.nextInt(100_000)); variant = "issued in the future"; }
            case 4 -> { claims.put("exp", now - random.nextInt(2)); variant = "expired (exp <= now)"; }
            case 5 -> { claims.put("v", 2); variant = "version"; }
            case 6 -> { claims.put("p", forge.javaPrincipalTag("bob")); variant = "principal bob"; }
            case 7 -> { claims.remove("p"); variant = "no principal"; }
            default -> { }
        }
        return variant;
    }

    private Attack forgedJava(Minted base) throws Exception {
        long now = WireSettings.T0;
        ObjectNode claims = forge.openJava(base.token());
        int pick = random.nextInt(10);
        String variant = bendEnvelope(claims, pick, now);
        if (variant == null) {
            switch (pick) {
                case 8 -> { claims.put("x", 1); variant = "extra claim"; }
                default -> { claims.put("s", 5); variant = "state not a string"; }
            }
        }
        return new Attack("forged-claims", variant, ToolClient.CREATE, base.arguments(), text(forge.sealJava(claims.toString())), main);
    }

    /**
     * The Python SDK's envelope (the Java format, sealed by the SDK's boundary), wrong in one claim, or right in every
     * claim with the fixture's own payload inside ({@code s}) wrong in one member: the boundary checks the first kind,
     * the fixture's binding the second. An extra envelope claim is not among them: the SDK's boundary ignores claims it
     * does not know (by design; a key holder gains nothing by adding one), which docs/faults.md records.
     */
    private Attack forgedPython(Minted base) throws Exception {
        long now = WireSettings.T0;
        ObjectNode claims = forge.openJava(base.token());
        ObjectNode payload = (ObjectNode) ExactJson.parse(claims.path("s").asText());
        int pick = random.nextInt(13);
        String variant = bendEnvelope(claims, pick, now);
        if (variant == null) {
            switch (pick) {
                case 8 -> { claims.put("s", 5); variant = "state not a string"; }
                case 9 -> { claims.put("a", claims.path("a").asText().equals("AAAAAAAAAAAAAAAAAAAAAA") ? "AQAAAAAAAAAAAAAAAAAAAA"
                        : "AAAAAAAAAAAAAAAAAAAAAA"); variant = "arguments digest"; }
                case 10 -> { claims.put("s", payload.put("tool", ToolClient.STATUS).toString()); variant = "payload tool"; }
                case 11 -> { claims.put("s", payload.put("principal", "bob").toString()); variant = "payload principal bob"; }
                default -> { claims.put("s", payload.put("expires_at", now - random.nextInt(2)).toString()); variant = "payload expired"; }
            }
        }
        return new Attack("forged-claims", variant, ToolClient.CREATE, base.arguments(), text(forge.sealJava(claims.toString())), main);
    }

    private Attack forgedTypeScript(Minted base) throws Exception {
        long now = WireSettings.T0;
        ObjectNode envelope = TokenForge.readTypeScript(base.token());
        String variant;
        switch (random.nextInt(6)) {
            case 0 -> { envelope.put("exp", now - 1 - random.nextInt(1000)); variant = "expired (exp < now)"; }
            case 1 -> { envelope.put("exp", String.valueOf(now + 600)); variant = "exp not a number"; }
            case 2 -> { envelope.remove("b"); variant = "no bind tag"; }
            case 3 -> { envelope.put("b", forge.typeScriptBindTag("bob")); variant = "principal bob"; }
            case 4 -> { ((ObjectNode) envelope.path("p")).put("tool", ToolClient.STATUS); variant = "tool"; }
            default -> { ((ObjectNode) envelope.path("p")).put("arguments_digest", sha256Hex("other arguments")); variant = "arguments digest"; }
        }
        return new Attack("forged-claims", variant, ToolClient.CREATE, base.arguments(), text(forge.signTypeScript(envelope.toString())), main);
    }

    /** The Go fixture's own payload, signed again with the key after one member went wrong. */
    private Attack forgedGo(Minted base) throws Exception {
        long now = WireSettings.T0;
        ObjectNode payload = TokenForge.readGo(base.token());
        String variant;
        switch (random.nextInt(10)) {
            case 0 -> { payload.put("method", "prompts/get"); variant = "method"; }
            case 1 -> { payload.put("audience", "continuation-replay-ts-fixture"); variant = "audience"; }
            case 2 -> { payload.put("tool", ToolClient.STATUS); variant = "tool"; }
            case 3 -> { payload.put("arguments_digest", sha256Hex("other arguments")); variant = "arguments digest"; }
            case 4 -> { payload.put("principal", "bob"); variant = "principal bob"; }
            case 5 -> { payload.put("expires_at", now - random.nextInt(2)); variant = "expired (expires_at <= now)"; }
            case 6 -> { payload.put("expires_at", String.valueOf(now + 600)); variant = "expires_at not a number"; }
            case 7 -> { payload.put("x", 1); variant = "extra member"; }
            case 8 -> { payload.remove("principal"); variant = "no principal"; }
            default -> { ((ObjectNode) payload.path("state")).put("operation_id", 7); variant = "state operation_id not a string"; }
        }
        return new Attack("forged-claims", variant, ToolClient.CREATE, base.arguments(), text(forge.signGo(payload.toString())), main);
    }

    /** The Rust fixture's binding of a state for {@code tool}, {@code arguments} and {@code principal}. */
    private static String rustBinding(String tool, JsonNode arguments, String principal) {
        ObjectNode bound = JsonNodeFactory.instance.objectNode().put("operation_id", arguments.path("operation_id").asText())
                .put("title", arguments.path("title").asText()).put("mode", arguments.path("mode").asText("atomic"));
        return TokenForge.rustBinding(sha256Hex(lab.continuationreplay.vectors.CanonicalJson.canonical(bound)),
                "continuation-replay-rust-fixture", "tools/call", principal, tool);
    }

    /**
     * The Rust fixture's payload or the binding the SDK's codec covers, one part wrong, signed again with the key: the
     * codec checks the binding (a wrong one is a wrong tag), the fixture the payload's members and expiry.
     */
    private Attack forgedRust(Minted base) throws Exception {
        long now = WireSettings.T0;
        ObjectNode payload = TokenForge.readRust(base.token());
        ObjectNode arguments = base.arguments();
        String binding = rustBinding(ToolClient.CREATE, arguments, "alice");
        String variant;
        switch (random.nextInt(9)) {
            case 0 -> { binding = rustBinding(ToolClient.STATUS, arguments, "alice"); variant = "tool"; }
            case 1 -> { binding = rustBinding(ToolClient.CREATE, arguments, "bob"); variant = "principal bob"; }
            case 2 -> { binding = TokenForge.rustBinding(sha256Hex("other arguments"), "continuation-replay-rust-fixture", "tools/call",
                    "alice", ToolClient.CREATE); variant = "arguments digest"; }
            case 3 -> { binding = TokenForge.rustBinding(sha256Hex(""), "continuation-replay-go-fixture", "tools/call", "alice",
                    ToolClient.CREATE); variant = "audience"; }
            case 4 -> { payload.put("expires_at", now - random.nextInt(2)); variant = "expired (expires_at <= now)"; }
            case 5 -> { payload.put("expires_at", String.valueOf(now + 600)); variant = "expires_at not a number"; }
            case 6 -> { payload.put("x", 1); variant = "extra member"; }
            case 7 -> { payload.remove("state"); variant = "no state"; }
            default -> { ((ObjectNode) payload.path("state")).put("operation_id", 7); variant = "state operation_id not a string"; }
        }
        return new Attack("forged-claims", variant, ToolClient.CREATE, arguments, text(forge.signRust(binding, payload.toString())), main);
    }

    private String send(Attack attack) throws Exception {
        byKind.merge(attack.kind(), 1, Integer::sum);
        Path database = ledgers.get(attack.target());
        String operation = attack.arguments().path("operation_id").asText();
        String what = attack.kind() + " (" + attack.variant() + ") on " + attack.tool() + ", " + operation;
        session.history().sentMustRefuse(scope(), database, operation);
        Reply reply;
        try {
            reply = ToolClient.on(attack.target()).continuation(attack.tool(), attack.arguments(), attack.requestState(), "attack body");
        } catch (TransportFailure failure) {
            noReply++;
            session.history().lost(scope(), database, operation, failure.getMessage());
            session.history().expect(scope(), what, "a refused state", "no reply: " + failure.getMessage());
            return "no_reply";
        }
        session.history().answer(scope(), database, operation, reply);
        String outcome = reply.isStateRefusal() ? "refused" : reply.isSuccess() ? "accepted" : "other_refusal";
        session.history().expect(scope(), what, "a refused state", outcome.equals("refused") ? "a refused state"
                : outcome + ": " + abbreviated(reply.raw()));
        if (outcome.equals("accepted")) {
            accepted++;
        } else if (outcome.equals("other_refusal")) {
            wrongShape++;
        }
        return outcome;
    }

    /** Whether the forge reproduces the server's own token with the lab key, so a forged token is not refused for its seal alone. */
    private boolean forgeHoldsTheKey(Minted minted) {
        String token = minted.token();
        try {
            return switch (sdk) {
                case JAVA, PYTHON -> forge.openJava(token) != null;
                case GO -> forge.signsLikeGo(token);
                case RUST -> forge.signsLikeRust(token, rustBinding(ToolClient.CREATE, minted.arguments(), "alice"));
                default -> forge.signsLike(token);
            };
        } catch (java.security.GeneralSecurityException | RuntimeException e) {
            return false;
        }
    }

    /** A valid continuation after all attacks still commits: the server refused attacks, not everything. */
    private boolean control() throws Exception {
        ObjectNode arguments = ToolClient.arguments("ta-" + sdk.label() + "-control", "token-attacks control", "atomic");
        String token = ToolClient.on(main).roundOne(arguments);
        session.history().sent(scope(), ledgers.get(main), "ta-" + sdk.label() + "-control");
        Reply reply = ToolClient.on(main).continuation(ToolClient.CREATE, arguments, text(token), "control body");
        session.history().answer(scope(), ledgers.get(main), "ta-" + sdk.label() + "-control", reply);
        boolean committed = reply.isSuccess() && reply.structured().path("replayed").isBoolean()
                && !reply.structured().path("replayed").booleanValue();
        session.history().expect(scope(), "the valid control continuation after the attacks", "committed",
                committed ? "committed" : abbreviated(reply.raw()));
        return committed;
    }

    private List<Minted> mint(ServerWire server, String label, int count) throws Exception {
        List<Minted> minted = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            ObjectNode arguments = ToolClient.arguments("ta-" + sdk.label() + "-" + label + "-" + i, "token attack " + label + " " + i,
                    i % 3 == 2 ? "partial" : "atomic");
            minted.add(new Minted(arguments, ToolClient.on(server).roundOne(arguments), label));
        }
        return minted;
    }

    private ServerWire start(String name, WireSettings settings) throws Exception {
        ServerWire server = FaultServers.start(session, sdk, settings, folder, name, ServerProcess.READ_TIMEOUT);
        extra.add(server);
        ledgers.put(server, settings.database());
        return server;
    }

    private Minted pick(List<Minted> pool) {
        return pool.get(random.nextInt(pool.size()));
    }

    private static JsonNode text(String token) {
        return JsonNodeFactory.instance.textNode(token);
    }

    private static String abbreviated(JsonNode node) {
        String text = node.toString();
        return text.length() > 300 ? text.substring(0, 300) + "…" : text;
    }

    static String sha256Hex(String text) {
        try {
            return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                    .digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
