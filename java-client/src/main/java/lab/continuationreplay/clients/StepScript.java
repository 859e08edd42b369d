package lab.continuationreplay.clients;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A step script ({@code client-script/1}), read and checked as a whole before anything starts: a script that fails
 * half way would leave servers and rows behind that nobody asked for.
 */
public record StepScript(Map<String, ServerSpec> servers, Duration requestTimeout, List<Step> steps) {
    public static final String FORMAT = "client-script/1";

    private static final Set<String> TOP_MEMBERS = Set.of("format", "servers", "request_timeout_ms", "version_mode", "steps");
    private static final Set<String> VERSION_MODES = Set.of("pin", "auto", "default");
    private static final Set<String> STDIO_MEMBERS = Set.of("command", "env");
    private static final Set<String> HTTP_MEMBERS = Set.of("url", "bearer_token_env");
    // As written in the URL: 127.1 or 0x7f.0.0.1 reach the same address, but a script should say what it means.
    private static final Set<String> LOOPBACK_HOSTS = Set.of("127.0.0.1", "localhost", "[::1]");
    /** The servers' own minimum for a bearer token. */
    static final int MIN_TOKEN_LENGTH = 32;

    // Duplicate members would let the script say two things at once; trailing text means the file is not one document.
    private static final ObjectMapper JSON = JsonMapper.builder()
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    public StepScript {
        servers = Map.copyOf(servers);
        steps = List.copyOf(steps);
    }

    /** {@code requestTimeout} null: each request keeps the SDK's default. Tokens come from this process's environment. */
    public static StepScript parse(String text) throws ScriptException {
        return parse(text, System.getenv());
    }

    /** As {@link #parse(String)}, with {@code environment} as the driver's environment the tokens are read from. */
    public static StepScript parse(String text, Map<String, String> environment) throws ScriptException {
        JsonNode root;
        try {
            root = JSON.readTree(text);
        } catch (JsonProcessingException e) {
            throw new ScriptException("script", "not a JSON document (" + e.getOriginalMessage() + ")");
        }
        if (root == null || !root.isObject()) {
            throw new ScriptException("script", "not a JSON object");
        }
        JsonNode format = root.get("format");
        if (format == null || !format.isTextual() || !format.asText().equals(FORMAT)) {
            throw new ScriptException("format", "expected \"" + FORMAT + "\", got " + (format == null ? "nothing" : format.toString()));
        }
        for (Iterator<String> names = root.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!TOP_MEMBERS.contains(name)) {
                throw new ScriptException(name, "unknown member");
            }
        }
        Map<String, ServerSpec> servers = servers(root.get("servers"), environment);
        Duration timeout = timeout(root.get("request_timeout_ms"));
        JsonNode versionMode = root.get("version_mode");
        if (versionMode != null && !versionMode.isNull()
                && !(versionMode.isTextual() && VERSION_MODES.contains(versionMode.asText()))) {
            throw new ScriptException("version_mode", "must be \"pin\", \"auto\" or \"default\"");
        }
        JsonNode stepsNode = root.get("steps");
        if (stepsNode == null || !stepsNode.isArray()) {
            throw new ScriptException("steps", "must be an array");
        }
        Checker checker = new Checker(servers.keySet());
        List<Step> steps = new ArrayList<>();
        for (int i = 0; i < stepsNode.size(); i++) {
            Step step = step(StepId.top(i), stepsNode.get(i), true);
            checker.check(step);
            steps.add(step);
        }
        return new StepScript(servers, timeout, steps);
    }

    private static Map<String, ServerSpec> servers(JsonNode node, Map<String, String> environment) throws ScriptException {
        if (node == null || !node.isObject()) {
            throw new ScriptException("servers", "must be an object");
        }
        Map<String, ServerSpec> servers = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> entry = it.next();
            String where = "servers." + entry.getKey();
            JsonNode spec = entry.getValue();
            if (!spec.isObject()) {
                throw new ScriptException(where, "must be an object");
            }
            servers.put(entry.getKey(), spec.has("url") ? httpServer(where, spec, environment) : stdioServer(where, spec));
        }
        return servers;
    }

    private static ServerSpec.Stdio stdioServer(String where, JsonNode spec) throws ScriptException {
        onlyMembers(where, spec, STDIO_MEMBERS);
        JsonNode command = spec.get("command");
        if (command == null || !command.isArray() || command.isEmpty()) {
            throw new ScriptException(where, "\"command\" must be a non-empty array of strings");
        }
        List<String> argv = new ArrayList<>();
        for (JsonNode arg : command) {
            if (!arg.isTextual()) {
                throw new ScriptException(where, "\"command\" must be a non-empty array of strings");
            }
            argv.add(arg.asText());
        }
        Map<String, String> env = new LinkedHashMap<>();
        JsonNode envNode = spec.get("env");
        if (envNode != null) {
            if (!envNode.isObject()) {
                throw new ScriptException(where, "\"env\" must be an object of strings");
            }
            for (Iterator<Map.Entry<String, JsonNode>> vars = envNode.fields(); vars.hasNext(); ) {
                Map.Entry<String, JsonNode> var = vars.next();
                if (!var.getValue().isTextual()) {
                    throw new ScriptException(where, "\"env\" must be an object of strings");
                }
                env.put(var.getKey(), var.getValue().asText());
            }
        }
        return new ServerSpec.Stdio(argv, env);
    }

    /**
     * The token is read here, while the script is checked, so that a missing or unusable one stops the driver before
     * any request is sent. No message ever holds the token, and none repeats a URL that might carry a password.
     */
    private static ServerSpec.Http httpServer(String where, JsonNode spec, Map<String, String> environment) throws ScriptException {
        onlyMembers(where, spec, HTTP_MEMBERS);
        JsonNode urlNode = spec.get("url");
        if (!urlNode.isTextual() || urlNode.asText().isEmpty()) {
            throw new ScriptException(where, "\"url\" must be a non-empty string");
        }
        URI url = loopbackUrl(where, urlNode.asText());
        JsonNode variable = spec.get("bearer_token_env");
        if (variable == null || !variable.isTextual() || variable.asText().isEmpty()) {
            throw new ScriptException(where, "\"bearer_token_env\" must name an environment variable of the driver");
        }
        String name = variable.asText();
        String token = environment.get(name);
        if (token == null) {
            throw new ScriptException(where, "bearer_token_env " + name + " is not set in the driver's environment");
        }
        if (token.length() < MIN_TOKEN_LENGTH) {
            throw new ScriptException(where, "bearer_token_env " + name + " holds a token shorter than " + MIN_TOKEN_LENGTH + " characters");
        }
        // Both servers accept only such tokens; anything else could break the header line or land in an SDK message.
        for (int i = 0; i < token.length(); i++) {
            char c = token.charAt(i);
            if (c < 0x21 || c > 0x7e) {
                throw new ScriptException(where, "bearer_token_env " + name + " holds a character other than printable ASCII (no spaces)");
            }
        }
        return new ServerSpec.Http(url, name, token);
    }

    /** Loopback only: a script must never send a token, or drive a write, to another machine. */
    private static URI loopbackUrl(String where, String text) throws ScriptException {
        URI url;
        try {
            url = new URI(text);
        } catch (URISyntaxException e) {
            throw new ScriptException(where, "\"url\" is not a URL");
        }
        if (!"http".equalsIgnoreCase(url.getScheme())) {
            throw new ScriptException(where, "\"url\" must be an http:// URL");
        }
        if (url.getRawUserInfo() != null) {
            throw new ScriptException(where, "\"url\" must not carry user information");
        }
        // No host means an authority Java could not read as host[:port]; it may hold anything, so it is not quoted.
        if (url.getHost() == null) {
            throw new ScriptException(where, "\"url\" must name a loopback host (127.0.0.1, localhost or [::1])");
        }
        if (!LOOPBACK_HOSTS.contains(url.getHost().toLowerCase(Locale.ROOT))) {
            throw new ScriptException(where, "\"url\" must name a loopback host (127.0.0.1, localhost or [::1]), not "
                    + url.getHost());
        }
        if (url.getPort() == 0 || url.getPort() > 65535) {
            throw new ScriptException(where, "\"url\" has port " + url.getPort() + ", outside 1..65535");
        }
        return url;
    }

    private static void onlyMembers(String where, JsonNode spec, Set<String> allowed) throws ScriptException {
        for (Iterator<String> names = spec.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!allowed.contains(name)) {
                throw new ScriptException(where, "unknown member \"" + name + "\"");
            }
        }
    }

    private static Duration timeout(JsonNode node) throws ScriptException {
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isIntegralNumber() || !node.canConvertToLong() || node.asLong() <= 0) {
            throw new ScriptException("request_timeout_ms", "must be a positive whole number of milliseconds or null");
        }
        return Duration.ofMillis(node.asLong());
    }

    private static Step step(StepId id, JsonNode node, boolean topLevel) throws ScriptException {
        if (node == null || !node.isObject()) {
            throw ScriptException.atStep(id, "not an object");
        }
        JsonNode opNode = node.get("op");
        if (opNode == null) {
            throw ScriptException.atStep(id, "missing \"op\"");
        }
        Op op = opNode.isTextual() ? Op.byWireName(opNode.asText()) : null;
        if (op == null) {
            throw ScriptException.atStep(id, "unknown op " + opNode);
        }
        if (op == Op.PARALLEL && !topLevel) {
            throw ScriptException.atStep(id, "a parallel step cannot hold another parallel step");
        }
        for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!op.allows(name)) {
                throw ScriptException.atStep(id, op.wireName() + " has no member \"" + name + "\"");
            }
        }
        for (String member : op.required()) {
            if (!node.has(member) || node.get(member).isNull()) {
                throw ScriptException.atStep(id, op.wireName() + " needs \"" + member + "\"");
            }
        }
        List<Step> inner = new ArrayList<>();
        if (op == Op.PARALLEL) {
            JsonNode steps = node.get("steps");
            if (!steps.isArray() || steps.isEmpty()) {
                throw ScriptException.atStep(id, "\"steps\" must be a non-empty array");
            }
            for (int i = 0; i < steps.size(); i++) {
                inner.add(step(id.inside(i), steps.get(i), false));
            }
        }
        String state = text(id, node, "state");
        StateTransform transform = null;
        if (node.has("state_transform")) {
            String name = text(id, node, "state_transform");
            transform = StateTransform.byWireName(name);
            if (transform == null) {
                throw ScriptException.atStep(id, "\"state_transform\" must be \"none\" or \"tamper\"");
            }
            if (state == null) {
                throw ScriptException.atStep(id, "\"state_transform\" needs \"state\"");
            }
        }
        if (state != null && transform == null) {
            transform = StateTransform.NONE;
        }
        if (node.has("ts_api")) {
            text(id, node, "ts_api");
        }
        return new Step(id, op,
                text(id, node, "connection"),
                text(id, node, "server"),
                text(id, node, "tool"),
                object(id, node, "arguments"),
                object(id, node, "answer"),
                object(id, node, "input_responses"),
                state,
                transform,
                text(id, node, "save_state"),
                text(id, node, "operation_id"),
                inner);
    }

    private static String text(StepId id, JsonNode step, String member) throws ScriptException {
        JsonNode value = step.get(member);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isTextual() || value.asText().isEmpty()) {
            throw ScriptException.atStep(id, "\"" + member + "\" must be a non-empty string");
        }
        return value.asText();
    }

    private static ObjectNode object(StepId id, JsonNode step, String member) throws ScriptException {
        JsonNode value = step.get(member);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isObject()) {
            throw ScriptException.atStep(id, "\"" + member + "\" must be an object");
        }
        return (ObjectNode) value.deepCopy();
    }

    /** Follows connections and saved states through the script in order, as the run will. */
    private static final class Checker {
        private final Set<String> serverNames;
        private final Set<String> open = new HashSet<>();
        private final Map<String, StepId> closedAt = new HashMap<>();
        private final Set<String> saved = new HashSet<>();

        Checker(Set<String> serverNames) {
            this.serverNames = serverNames;
        }

        void check(Step step) throws ScriptException {
            if (step.op() != Op.PARALLEL) {
                checkOne(step, saved);
                return;
            }
            // Inner steps run at the same moment: each needs its own connection, and none can use a state a
            // sibling saves, because nothing orders the two.
            Set<String> before = Set.copyOf(saved);
            Set<String> connections = new HashSet<>();
            Set<String> savedHere = new HashSet<>();
            for (Step inner : step.inner()) {
                if (!connections.add(inner.connection())) {
                    throw ScriptException.atStep(inner.id(), "connection \"" + inner.connection()
                            + "\" is used by two steps of one parallel step");
                }
                if (inner.saveState() != null && !savedHere.add(inner.saveState())) {
                    throw ScriptException.atStep(inner.id(), "state \"" + inner.saveState()
                            + "\" is saved by two steps of one parallel step");
                }
                checkOne(inner, before);
            }
        }

        private void checkOne(Step step, Set<String> usableStates) throws ScriptException {
            String connection = step.connection();
            if (step.op() == Op.CONNECT) {
                if (!serverNames.contains(step.server())) {
                    throw ScriptException.atStep(step.id(), "unknown server \"" + step.server() + "\"");
                }
                if (open.contains(connection)) {
                    throw ScriptException.atStep(step.id(), "connection \"" + connection + "\" is already connected");
                }
                open.add(connection);
                closedAt.remove(connection);
            } else if (!open.contains(connection)) {
                StepId closed = closedAt.get(connection);
                throw ScriptException.atStep(step.id(), closed == null
                        ? "connection \"" + connection + "\" is used before connect"
                        : "connection \"" + connection + "\" is used after its close at step " + closed);
            }
            if (step.op() == Op.CLOSE) {
                open.remove(connection);
                closedAt.put(connection, step.id());
            }
            if (step.state() != null && !usableStates.contains(step.state())) {
                throw ScriptException.atStep(step.id(), "state \"" + step.state() + "\" is used before a step saves it");
            }
            if (step.saveState() != null) {
                saved.add(step.saveState());
            }
        }
    }
}
