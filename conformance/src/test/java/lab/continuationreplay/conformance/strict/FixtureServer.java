package lab.continuationreplay.conformance.strict;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * A small MCP server over Streamable HTTP (2026-07-28 wire, the JDK's HTTP server, a real loopback socket) with the
 * two MRTR fixtures the strict checks use, {@code test_input_required_result_request_state} and
 * {@code test_input_required_result_tampered_state}. Its state is {@code v1.<payload>.<mac>}: base64url (canonical,
 * unpadded) of a JSON payload binding tool, arguments digest, principal, expiry and a nonce, and an HMAC-SHA256 of
 * the payload's bytes. Without a {@link Defect} it does everything the strict checks ask; each defect breaks exactly
 * one thing, the way real servers get it wrong.
 */
final class FixtureServer implements AutoCloseable {
    static final String REQUEST_STATE = "test_input_required_result_request_state";
    static final String TAMPERED_STATE = "test_input_required_result_tampered_state";
    private static final Set<String> FIXTURES = Set.of(REQUEST_STATE, TAMPERED_STATE);
    /** The lab's tool contract: a write of one effect per operation id, and the status tool that reads it back. */
    static final String EFFECT_TOOL = "create_guarded_issue";
    static final String STATUS_TOOL = "get_operation_status";
    /** The effect tool's states live as long as the lab servers' own (the short lifetime is the fixtures'). */
    private static final Duration EFFECT_STATE_TTL = Duration.ofMinutes(10);
    private static final List<String> TOOLS = List.of(REQUEST_STATE, TAMPERED_STATE, EFFECT_TOOL, STATUS_TOOL);
    /** Above this a state is "large": where {@link Defect#FAILS_ON_LARGE_STATE} and {@link Defect#WEDGED_BY_LARGE_STATE} bite. */
    private static final int LARGE = 64 * 1024;
    private static final int MAX_BODY = 4 * 1024 * 1024;

    enum Defect {
        NONE,
        /** Never signs its state, never checks it: what the official suite's request-state scenario lets pass. */
        IGNORES_STATE,
        /** Completes a valid continuation, but without the word "state-ok" the fixture's contract asks for. */
        OMITS_STATE_OK,
        /** A continuation without requestState but with the responses completes, as if the state were optional. */
        COMPLETES_WITHOUT_STATE,
        /** Checks the MAC's length, never its value. */
        MAC_NOT_CHECKED,
        /** Compares the MAC as text, over the length the client sent: a prefix of it passes. */
        TRUNCATED_MAC_ACCEPTED,
        /** Decodes base64 leniently (either alphabet, padding or not), so other spellings of the same bytes pass. */
        LENIENT_BASE64,
        /** The payload's tool is not compared with the called tool. */
        TOOL_NOT_BOUND,
        /** The payload's arguments digest is not compared with the continuation's arguments. */
        ARGUMENTS_NOT_BOUND,
        /** The payload's principal is not compared with the bearer token's. */
        PRINCIPAL_NOT_BOUND,
        /** A non-string requestState is searched for a string: an array's first element, an object's requestState. */
        UNWRAPS_NON_STRING,
        /** Each completion numbers itself, so the same continuation completes again with other content. */
        REPLAY_DIFFERS,
        /** The payload's expiry is not compared with the clock. */
        EXPIRY_NOT_CHECKED,
        /** A state over 64 KiB makes the handler fail: HTTP 500, plain text, no JSON-RPC answer. */
        FAILS_ON_LARGE_STATE,
        /** A state over 64 KiB is refused properly, but the server answers 503 to everything after it. */
        WEDGED_BY_LARGE_STATE,
        /** GET opens an event stream and DELETE ends a "session", as servers of the 2025 revisions did. */
        SERVES_GET_AND_DELETE,
        /** Every response carries an Mcp-Session-Id of its own, as a 2025 server minting sessions would. */
        MINTS_SESSION_ID,
        /** A POST with Last-Event-ID is answered with the last round one again, as if the stream were resumed. */
        RESUMES_ON_LAST_EVENT_ID,
        /** A request id seen before is refused as a duplicate, so a client's retry of a lost request never gets through. */
        REFUSES_A_REPEATED_ID,
        /** The effect tool's final round, sent again after it committed, fails on the stored row: HTTP 500, no JSON-RPC answer. */
        FAILS_A_COMMITTED_RETRY,
        /** A final round that waits on the held ledger commits once it is free, though its client has left. */
        COMMITS_AFTER_CLOSE
    }

    /** How replies travel. */
    enum ReplyStyle {
        JSON,
        /** text/event-stream: a comment and a notification first, and the stream left open after the answer. */
        EVENT_STREAM
    }

    /** How a refused state is answered: the three refusals the strict checks accept. */
    enum RefusalStyle {
        JSON_RPC_ERROR_200,
        JSON_RPC_ERROR_400,
        IS_ERROR_RESULT,
        HTTP_400_PLAIN
    }

    /**
     * @param tokens     bearer token → principal; empty: no authentication, one anonymous principal
     * @param singleUse  a state whose round completed is refused afterwards (a replay then gets a refusal)
     */
    record Options(Defect defect, Map<String, String> tokens, Duration stateTtl, ReplyStyle replies, RefusalStyle refusals,
            boolean singleUse) {
        static Options of(Defect defect) {
            return new Options(defect, Map.of(), Duration.ofMinutes(10), ReplyStyle.JSON, RefusalStyle.JSON_RPC_ERROR_200, false);
        }

        Options withTokens(Map<String, String> value) {
            return new Options(defect, value, stateTtl, replies, refusals, singleUse);
        }

        Options withStateTtl(Duration value) {
            return new Options(defect, tokens, value, replies, refusals, singleUse);
        }

        Options withReplies(ReplyStyle value) {
            return new Options(defect, tokens, stateTtl, value, refusals, singleUse);
        }

        Options withRefusals(RefusalStyle value) {
            return new Options(defect, tokens, stateTtl, replies, value, singleUse);
        }

        Options withSingleUse() {
            return new Options(defect, tokens, stateTtl, replies, refusals, true);
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Options options;
    private final HttpServer server;
    private final ExecutorService executor = Executors.newCachedThreadPool(r -> {
        Thread thread = new Thread(r, "fixture-server");
        thread.setDaemon(true);
        return thread;
    });
    private final byte[] key = new byte[32];
    private final SecureRandom random = new SecureRandom();
    private final AtomicBoolean wedged = new AtomicBoolean();
    private final AtomicInteger completions = new AtomicInteger();
    private final Set<String> usedNonces = ConcurrentHashMap.newKeySet();
    private final Set<String> idsSeen = ConcurrentHashMap.newKeySet();
    private final java.util.concurrent.atomic.AtomicReference<ObjectNode> lastRoundOne = new java.util.concurrent.atomic.AtomicReference<>();
    private final Map<String, String> effects = new ConcurrentHashMap<>();
    private final java.util.concurrent.atomic.AtomicReference<CountDownLatch> ledgerHeld = new java.util.concurrent.atomic.AtomicReference<>();
    /** Every Authorization header seen, so a test can tell which tokens the checker sent. */
    final Set<String> principalsSeen = ConcurrentHashMap.newKeySet();

    private FixtureServer(Options options) throws IOException {
        this.options = options;
        random.nextBytes(key);
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/mcp", this::handle);
        server.setExecutor(executor);
        server.start();
    }

    static FixtureServer start(Options options) throws IOException {
        return new FixtureServer(options);
    }

    URI url() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/mcp");
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }

    // ---- HTTP -------------------------------------------------------------------------------------------------------

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            if (options.defect() == Defect.MINTS_SESSION_ID) {
                exchange.getResponseHeaders().set("Mcp-Session-Id", "fixture-session-1");
            }
            if (!exchange.getRequestMethod().equals("POST")) {
                if (options.defect() == Defect.SERVES_GET_AND_DELETE && exchange.getRequestMethod().equals("GET")) {
                    exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
                    exchange.sendResponseHeaders(200, 0);
                    exchange.getResponseBody().write(": the standalone stream\n\n".getBytes(StandardCharsets.UTF_8));
                    return;
                }
                if (options.defect() == Defect.SERVES_GET_AND_DELETE && exchange.getRequestMethod().equals("DELETE")) {
                    exchange.sendResponseHeaders(200, -1);
                    return;
                }
                plain(exchange, 405, "method not allowed");
                return;
            }
            String principal = "anonymous";
            if (!options.tokens().isEmpty()) {
                String authorization = exchange.getRequestHeaders().getFirst("Authorization");
                principal = authorization != null && authorization.startsWith("Bearer ")
                        ? options.tokens().get(authorization.substring(7)) : null;
                if (principal == null) {
                    exchange.getResponseHeaders().add("WWW-Authenticate", "Bearer");
                    plain(exchange, 401, "unauthorized");
                    return;
                }
                principalsSeen.add(principal);
            }
            if (wedged.get()) {
                plain(exchange, 503, "unavailable");
                return;
            }
            byte[] body = exchange.getRequestBody().readNBytes(MAX_BODY + 1);
            if (body.length > MAX_BODY) {
                plain(exchange, 413, "body too large");
                return;
            }
            JsonNode request;
            try {
                request = JSON.readTree(body);
            } catch (IOException e) {
                json(exchange, 400, error(null, -32700, "Parse error"));
                return;
            }
            if (request == null || !request.isObject() || !"2.0".equals(request.path("jsonrpc").asText()) || !request.has("method")) {
                json(exchange, 400, error(null, -32600, "Invalid Request"));
                return;
            }
            JsonNode id = request.get("id");
            String method = request.path("method").asText();
            if (id == null) {
                exchange.sendResponseHeaders(202, -1);
                return;
            }
            String headerProblem = headerProblem(exchange, request);
            if (headerProblem != null) {
                json(exchange, 400, error(id, -32020, headerProblem));
                return;
            }
            if (options.defect() == Defect.REFUSES_A_REPEATED_ID && !idsSeen.add(id.toString())) {
                json(exchange, 400, error(id, -32600, "duplicate request id " + id));
                return;
            }
            if (options.defect() == Defect.RESUMES_ON_LAST_EVENT_ID && exchange.getRequestHeaders().getFirst("Last-Event-ID") != null
                    && lastRoundOne.get() != null) {
                json(exchange, 200, lastRoundOne.get());
                return;
            }
            JsonNode meta = request.path("params").path("_meta");
            if (!"2026-07-28".equals(meta.path("io.modelcontextprotocol/protocolVersion").asText())
                    || !meta.path("io.modelcontextprotocol/clientCapabilities").isObject()) {
                json(exchange, 400, error(id, -32602, "the _meta envelope lacks protocolVersion or clientCapabilities"));
                return;
            }
            CountDownLatch held = ledgerHeld.get();
            JsonNode params = request.path("params");
            if (held != null && method.equals("tools/call") && EFFECT_TOOL.equals(params.path("name").asText())
                    && params.has("requestState")) {
                waitForTheLedger(exchange, held, id, params, principal);
                return;
            }
            Answer answer = switch (method) {
                case "tools/call" -> call(id, request.path("params"), principal);
                case "tools/list" -> new Answer(200, result(id, toolList()));
                case "server/discover" -> new Answer(200, result(id, discover()));
                default -> new Answer(200, error(id, -32601, "Method not found"));
            };
            if (answer.body() != null && "input_required".equals(answer.body().path("result").path("resultType").asText())) {
                lastRoundOne.set(answer.body());
            }
            if (answer.plainText() != null) {
                plain(exchange, answer.status(), answer.plainText());
            } else if (options.replies() == ReplyStyle.EVENT_STREAM) {
                eventStream(exchange, answer.status(), answer.body());
            } else {
                json(exchange, answer.status(), answer.body());
            }
        } catch (RuntimeException e) {
            plain(exchange, 500, "internal error");
        }
    }

    /**
     * Holds the effect tool's commits until the returned handle is closed, as a second writer holding a ledger would:
     * what {@code lab conformance} does to a real server's SQLite file.
     */
    AutoCloseable hold() {
        CountDownLatch latch = new CountDownLatch(1);
        if (!ledgerHeld.compareAndSet(null, latch)) {
            throw new IllegalStateException("the ledger is held already");
        }
        return () -> {
            ledgerHeld.set(null);
            latch.countDown();
        };
    }

    /**
     * A round that must wait for the held ledger: the answer is begun at once and a space (JSON's leading whitespace)
     * written every 50 ms, so a client that left is noticed by a failed write and the round is dropped uncommitted.
     * {@link Defect#COMMITS_AFTER_CLOSE} waits without looking and commits once the ledger is free.
     */
    private void waitForTheLedger(HttpExchange exchange, CountDownLatch held, JsonNode id, JsonNode params, String principal)
            throws IOException {
        boolean looks = options.defect() != Defect.COMMITS_AFTER_CLOSE;
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, 0);
        OutputStream out = exchange.getResponseBody();
        try {
            while (!held.await(50, java.util.concurrent.TimeUnit.MILLISECONDS)) {
                if (looks) {
                    try {
                        out.write(' ');
                        out.flush();
                    } catch (IOException clientLeft) {
                        return;
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        Answer answer = call(id, params, principal);
        try {
            out.write((answer.body() == null ? "" : answer.body().toString()).getBytes(StandardCharsets.UTF_8));
        } catch (IOException clientLeft) {
            // committed, and nobody to tell: what the defect is about
        }
    }

    /** The 2026-07-28 headers must agree with the body, as the SDKs' transports insist. */
    private static String headerProblem(HttpExchange exchange, JsonNode request) {
        String version = exchange.getRequestHeaders().getFirst("MCP-Protocol-Version");
        if (!"2026-07-28".equals(version)) {
            return "MCP-Protocol-Version must be 2026-07-28, not " + version;
        }
        if (!request.path("method").asText().equals(exchange.getRequestHeaders().getFirst("Mcp-Method"))) {
            return "Mcp-Method does not match the body";
        }
        if (request.path("method").asText().equals("tools/call")
                && !request.path("params").path("name").asText().equals(exchange.getRequestHeaders().getFirst("Mcp-Name"))) {
            return "Mcp-Name does not match the body";
        }
        return null;
    }

    private record Answer(int status, ObjectNode body, String plainText) {
        Answer(int status, ObjectNode body) {
            this(status, body, null);
        }
    }

    // ---- the fixtures -----------------------------------------------------------------------------------------------

    private Answer call(JsonNode id, JsonNode params, String principal) {
        String tool = params.path("name").asText();
        if (tool.equals(STATUS_TOOL)) {
            String operation = params.path("arguments").path("operation_id").asText();
            ObjectNode result = JSON.createObjectNode().put("resultType", "complete");
            result.putObject("structuredContent").put("operationId", operation)
                    .put("state", effects.containsKey(principal + "/" + operation) ? "applied" : "not_applied");
            result.putArray("content").addObject().put("type", "text").put("text", result.get("structuredContent").toString());
            return new Answer(200, result(id, result));
        }
        if (!FIXTURES.contains(tool) && !tool.equals(EFFECT_TOOL)) {
            return new Answer(200, error(id, -32602, "Unknown tool: " + tool));
        }
        JsonNode arguments = params.has("arguments") ? params.get("arguments") : JSON.createObjectNode();
        JsonNode responses = params.get("inputResponses");
        boolean answered = responses != null && "accept".equals(responses.path("confirm").path("action").asText());
        JsonNode state = params.get("requestState");
        Defect defect = options.defect();
        if (defect == Defect.IGNORES_STATE && !tool.equals(EFFECT_TOOL)) {
            return answered ? new Answer(200, result(id, completed())) : new Answer(200, result(id, roundOne(tool, arguments, principal)));
        }
        if (state == null) {
            if (answered && defect == Defect.COMPLETES_WITHOUT_STATE) {
                return new Answer(200, result(id, completed()));
            }
            return new Answer(200, result(id, roundOne(tool, arguments, principal)));
        }
        String large = state.isTextual() && state.textValue().length() > LARGE ? state.textValue() : null;
        if (large != null && defect == Defect.FAILS_ON_LARGE_STATE) {
            return new Answer(500, null, "internal error");
        }
        if (large != null && defect == Defect.WEDGED_BY_LARGE_STATE) {
            wedged.set(true);
        }
        Optional<String> nonce = verify(state, tool, arguments, principal);
        if (nonce.isEmpty() || options.singleUse() && usedNonces.contains(nonce.get())) {
            return refusal(id);
        }
        if (!answered) {
            return new Answer(200, result(id, roundOne(tool, arguments, principal)));
        }
        if (options.singleUse()) {
            usedNonces.add(nonce.get());
        }
        if (tool.equals(EFFECT_TOOL)) {
            String key = principal + "/" + arguments.path("operation_id").asText();
            if (effects.containsKey(key) && defect == Defect.FAILS_A_COMMITTED_RETRY) {
                return new Answer(500, null, "internal error: duplicate key " + key);
            }
            return new Answer(200, result(id, commit(key)));
        }
        return new Answer(200, result(id, completed()));
    }

    /** The effect tool's final round: one effect per operation, its result stored and given again to a retry. */
    private ObjectNode commit(String key) {
        String stored = effects.computeIfAbsent(key, k -> "created issue " + (effects.size() + 1));

        ObjectNode result = JSON.createObjectNode().put("resultType", "complete");
        result.putArray("content").addObject().put("type", "text").put("text", stored);
        return result;
    }

    private Answer refusal(JsonNode id) {
        return switch (options.refusals()) {
            case JSON_RPC_ERROR_200 -> new Answer(200, invalidState(id));
            case JSON_RPC_ERROR_400 -> new Answer(400, invalidState(id));
            case IS_ERROR_RESULT -> {
                ObjectNode result = JSON.createObjectNode().put("resultType", "complete").put("isError", true);
                result.putArray("content").addObject().put("type", "text").put("text", "Invalid or expired requestState");
                yield new Answer(200, result(id, result));
            }
            case HTTP_400_PLAIN -> new Answer(400, null, "bad request: invalid requestState");
        };
    }

    private static ObjectNode invalidState(JsonNode id) {
        ObjectNode error = error(id, -32602, "Invalid or expired requestState");
        ((ObjectNode) error.get("error")).putObject("data").put("reason", "invalid_request_state");
        return error;
    }

    private ObjectNode roundOne(String tool, JsonNode arguments, String principal) {
        ObjectNode result = JSON.createObjectNode().put("resultType", "input_required");
        ObjectNode params = result.putObject("inputRequests").putObject("confirm").put("method", "elicitation/create")
                .putObject("params");
        params.put("mode", "form").put("message", "Please confirm");
        ObjectNode schema = params.putObject("requestedSchema").put("type", "object");
        schema.putObject("properties").putObject("ok").put("type", "boolean");
        schema.putArray("required").add("ok");
        result.put("requestState", options.defect() == Defect.IGNORES_STATE && !tool.equals(EFFECT_TOOL) ? unsigned(tool)
                : mint(tool, arguments, principal));
        return result;
    }

    private ObjectNode completed() {
        int n = completions.incrementAndGet();
        String text = switch (options.defect()) {
            case OMITS_STATE_OK -> "confirmed";
            case REPLAY_DIFFERS -> "state-ok: completion " + n;
            default -> "state-ok: the requestState was verified";
        };
        ObjectNode result = JSON.createObjectNode().put("resultType", "complete");
        result.putArray("content").addObject().put("type", "text").put("text", text);
        return result;
    }

    private static ObjectNode toolList() {
        ObjectNode result = JSON.createObjectNode().put("resultType", "complete");
        for (String name : TOOLS) {
            ObjectNode tool = result.withArray("tools").addObject().put("name", name).put("description", "MRTR fixture");
            tool.putObject("inputSchema").put("type", "object");
        }
        return result;
    }

    private static ObjectNode discover() {
        ObjectNode result = JSON.createObjectNode().put("resultType", "complete");
        result.putArray("supportedVersions").add("2026-07-28");
        result.putObject("capabilities").putObject("tools");
        result.putObject("serverInfo").put("name", "strict-fixture-server").put("version", "1");
        return result;
    }

    // ---- the state --------------------------------------------------------------------------------------------------

    private String mint(String tool, JsonNode arguments, String principal) {
        byte[] nonce = new byte[12];
        random.nextBytes(nonce);
        ObjectNode payload = JSON.createObjectNode().put("tool", tool).put("args", digest(arguments)).put("sub", principal)
                .put("exp", System.currentTimeMillis() + (tool.equals(EFFECT_TOOL) ? EFFECT_STATE_TTL : options.stateTtl()).toMillis())
                .put("nonce", HexFormat.of().formatHex(nonce));
        byte[] bytes = payload.toString().getBytes(StandardCharsets.UTF_8);
        Base64.Encoder encoder = Base64.getUrlEncoder().withoutPadding();
        return "v1." + encoder.encodeToString(bytes) + "." + encoder.encodeToString(mac(bytes));
    }

    /** What a server that "just passes some context along" sends: readable, unsigned, never looked at again. */
    private static String unsigned(String tool) {
        byte[] bytes = JSON.createObjectNode().put("tool", tool).put("round", 1).toString().getBytes(StandardCharsets.UTF_8);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /** The state's nonce when it is valid for this call, else empty. */
    private Optional<String> verify(JsonNode node, String tool, JsonNode arguments, String principal) {
        Defect defect = options.defect();
        String state;
        if (node.isTextual()) {
            state = node.textValue();
        } else if (defect == Defect.UNWRAPS_NON_STRING && node.isArray() && node.path(0).isTextual()) {
            state = node.path(0).textValue();
        } else if (defect == Defect.UNWRAPS_NON_STRING && node.path("requestState").isTextual()) {
            state = node.path("requestState").textValue();
        } else {
            return Optional.empty();
        }
        String[] parts = state.split("\\.", -1);
        if (parts.length != 3 || !parts[0].equals("v1")) {
            return Optional.empty();
        }
        byte[] payload = decode(parts[1]);
        if (payload == null) {
            return Optional.empty();
        }
        byte[] expected = mac(payload);
        boolean macOk;
        if (defect == Defect.TRUNCATED_MAC_ACCEPTED) {
            macOk = !parts[2].isEmpty() && Base64.getUrlEncoder().withoutPadding().encodeToString(expected).startsWith(parts[2]);
        } else {
            byte[] given = decode(parts[2]);
            macOk = given != null && given.length == expected.length
                    && (defect == Defect.MAC_NOT_CHECKED || MessageDigest.isEqual(given, expected));
        }
        if (!macOk) {
            return Optional.empty();
        }
        JsonNode claims;
        try {
            claims = JSON.readTree(payload);
        } catch (IOException e) {
            return Optional.empty();
        }
        if (claims == null || !claims.isObject()
                || defect != Defect.TOOL_NOT_BOUND && !tool.equals(claims.path("tool").asText())
                || defect != Defect.ARGUMENTS_NOT_BOUND && !digest(arguments).equals(claims.path("args").asText())
                || defect != Defect.PRINCIPAL_NOT_BOUND && !principal.equals(claims.path("sub").asText())
                || defect != Defect.EXPIRY_NOT_CHECKED && System.currentTimeMillis() >= claims.path("exp").asLong(0)) {
            return Optional.empty();
        }
        return Optional.of(claims.path("nonce").asText());
    }

    /** Canonical unpadded base64url only, unless the defect is {@link Defect#LENIENT_BASE64}. */
    private byte[] decode(String text) {
        try {
            if (options.defect() == Defect.LENIENT_BASE64) {
                return Base64.getUrlDecoder().decode(text.replace('+', '-').replace('/', '_').replace("=", ""));
            }
            byte[] bytes = Base64.getUrlDecoder().decode(text);
            return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes).equals(text) ? bytes : null;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private byte[] mac(byte[] payload) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            mac.update("v1".getBytes(StandardCharsets.US_ASCII));
            return mac.doFinal(payload);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String digest(JsonNode arguments) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(arguments.toString().getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    // ---- writing ----------------------------------------------------------------------------------------------------

    private static ObjectNode result(JsonNode id, ObjectNode result) {
        ObjectNode response = JSON.createObjectNode().put("jsonrpc", "2.0");
        response.set("id", id);
        response.set("result", result);
        return response;
    }

    private static ObjectNode error(JsonNode id, int code, String message) {
        ObjectNode response = JSON.createObjectNode().put("jsonrpc", "2.0");
        response.set("id", id);
        response.putObject("error").put("code", code).put("message", message);
        return response;
    }

    private static void json(HttpExchange exchange, int status, ObjectNode body) throws IOException {
        byte[] bytes = body.toString().getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
    }

    private static void plain(HttpExchange exchange, int status, String text) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "text/plain");
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
    }

    /**
     * The answer as one event among others, with the stream then left open for a while: a client that waits for the
     * end of the stream instead of the answer would take that long per request.
     */
    private static void eventStream(HttpExchange exchange, int status, ObjectNode body) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
        exchange.sendResponseHeaders(status, 0);
        OutputStream out = exchange.getResponseBody();
        String notification = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"info\",\"data\":\"working\"}}";
        String events = ": comment\n\nevent: message\ndata: " + notification + "\n\nevent: message\ndata: " + body + "\n\n";
        out.write(events.getBytes(StandardCharsets.UTF_8));
        out.flush();
        try {
            Thread.sleep(LINGER.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static final Duration LINGER = Duration.ofSeconds(10);
}
