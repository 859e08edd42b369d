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
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * A step script ({@code client-script/1}), read and checked as a whole before anything starts: a script that fails
 * half way would leave servers and rows behind that nobody asked for. The checks, their order and their wording are
 * those of the other three drivers, held to one table ({@code vectors/rules/client-script.json}).
 */
public record StepScript(Map<String, ServerSpec> servers, Duration requestTimeout, List<Step> steps) {
    public static final String FORMAT = "client-script/1";

    private static final Set<String> TOP_MEMBERS = Set.of("format", "servers", "request_timeout_ms", "version_mode", "steps");
    private static final List<String> VERSION_MODES = List.of("pin", "auto", "default");
    private static final List<String> STATE_TRANSFORMS = List.of("none", "tamper");
    private static final List<String> TS_APIS = List.of("callTool", "request");
    // As written in the URL: 127.1 or 0x7f.0.0.1 reach the same address, but a script should say what it means.
    private static final Set<String> LOOPBACK_HOSTS = Set.of("127.0.0.1", "localhost", "[::1]");
    private static final Pattern CONTROL_OR_SPACE = Pattern.compile("[\\x00-\\x20\\x7f]");
    private static final Pattern SCHEME_AND_AUTHORITY = Pattern.compile("^([A-Za-z][A-Za-z0-9+.-]*)://([^/?#]*)");
    /** The servers' own minimum for a bearer token. */
    static final int MIN_TOKEN_LENGTH = 32;
    /** The largest timeout the TypeScript driver reads exactly (Number.MAX_SAFE_INTEGER); all four hold to it. */
    static final long MAX_TIMEOUT_MS = (1L << 53) - 1;

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
            throw new ScriptException("", "not JSON (" + e.getOriginalMessage() + ")");
        }
        if (root == null || root.isMissingNode()) {
            throw new ScriptException("", "not JSON (no value)");
        }
        if (!root.isObject()) {
            throw new ScriptException("", "the script must be a JSON object");
        }
        Members top = new Members("", (ObjectNode) root, TOP_MEMBERS::contains);
        // The tag first: a script of another format version must be named as such, not by whichever member differs.
        JsonNode format = root.get("format");
        if (format == null || !format.isTextual() || !format.textValue().equals(FORMAT)) {
            throw top.fail("format must be \"" + FORMAT + "\" (got " + (format == null ? "null" : format.toString()) + ")");
        }
        Map<String, ServerSpec> servers = servers(top.object("servers"), environment);
        if (!top.has("request_timeout_ms")) {
            throw top.fail("request_timeout_ms is required (null for the SDK default)");
        }
        Duration timeout = timeout(top, root.get("request_timeout_ms"));
        if (!top.has("version_mode")) {
            throw top.fail("version_mode is required");
        }
        top.oneOf("version_mode", VERSION_MODES, "pin");
        JsonNode stepsNode = root.get("steps");
        if (stepsNode == null || !stepsNode.isArray()) {
            throw top.fail("steps must be an array");
        }
        Scope scope = new Scope(new HashSet<>(), new HashSet<>());
        List<Step> steps = new ArrayList<>();
        for (int i = 0; i < stepsNode.size(); i++) {
            steps.add(step(stepsNode.get(i), i, servers.keySet(), scope));
        }
        return new StepScript(servers, timeout, steps);
    }

    private static Map<String, ServerSpec> servers(ObjectNode node, Map<String, String> environment) throws ScriptException {
        Map<String, ServerSpec> servers = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> entry = it.next();
            String where = "servers." + entry.getKey() + ": ";
            if (!entry.getValue().isObject()) {
                throw new ScriptException(where, "must be an object");
            }
            ObjectNode spec = (ObjectNode) entry.getValue();
            servers.put(entry.getKey(), spec.has("url") ? httpServer(where, spec, environment) : stdioServer(where, spec));
        }
        return servers;
    }

    private static ServerSpec.Stdio stdioServer(String where, ObjectNode spec) throws ScriptException {
        Members members = new Members(where, spec, Set.of("command", "env")::contains);
        JsonNode command = spec.get("command");
        if (command == null || !command.isArray() || command.isEmpty()) {
            throw members.fail("command must be a non-empty array of strings");
        }
        List<String> argv = new ArrayList<>();
        for (JsonNode arg : command) {
            // An empty program names nothing to start; an empty argument after it is an argument.
            if (!arg.isTextual() || (argv.isEmpty() && arg.textValue().isEmpty())) {
                throw members.fail("command must be a non-empty array of strings");
            }
            argv.add(arg.textValue());
        }
        Map<String, String> env = new LinkedHashMap<>();
        ObjectNode envNode = members.optionalObject("env");
        if (envNode != null) {
            for (Iterator<Map.Entry<String, JsonNode>> vars = envNode.fields(); vars.hasNext(); ) {
                Map.Entry<String, JsonNode> var = vars.next();
                if (!var.getValue().isTextual()) {
                    throw members.fail("env." + var.getKey() + " must be a string");
                }
                env.put(var.getKey(), var.getValue().textValue());
            }
        }
        return new ServerSpec.Stdio(argv, env);
    }

    /**
     * The token is read here, while the script is checked, so that a missing or unusable one stops the driver before
     * any request is sent. No message ever holds the token, and none repeats a URL that might carry a password.
     */
    private static ServerSpec.Http httpServer(String where, ObjectNode spec, Map<String, String> environment) throws ScriptException {
        Members members = new Members(where, spec, Set.of("url", "bearer_token_env")::contains);
        URI url = loopbackUrl(members, members.string("url"));
        String name = members.string("bearer_token_env");
        String token = environment.get(name);
        if (token == null) {
            throw members.fail("bearer_token_env " + name + " is not set in the driver's environment");
        }
        if (token.length() < MIN_TOKEN_LENGTH) {
            throw members.fail("bearer_token_env " + name + " holds a token shorter than " + MIN_TOKEN_LENGTH + " characters");
        }
        // Both servers accept only such tokens; anything else could break the header line or land in an SDK message.
        for (int i = 0; i < token.length(); i++) {
            char c = token.charAt(i);
            if (c < 0x21 || c > 0x7e) {
                throw members.fail("bearer_token_env " + name + " holds a character other than printable ASCII (no spaces)");
            }
        }
        return new ServerSpec.Http(url, name, token);
    }

    /**
     * Loopback only: a script must never send a token, or drive a write, to another machine. The host is checked as
     * written, as the other drivers check it (a URL parser may rewrite 127.1 to 127.0.0.1, or refuse it).
     */
    private static URI loopbackUrl(Members members, String text) throws ScriptException {
        if (CONTROL_OR_SPACE.matcher(text).find()) {
            throw members.fail("url is not a URL");
        }
        Matcher written = SCHEME_AND_AUTHORITY.matcher(text);
        if (!written.find() || !written.group(1).equalsIgnoreCase("http")) {
            throw members.fail("url must be an http:// URL");
        }
        String authority = written.group(2);
        if (authority.contains("@")) {
            throw members.fail("url must not carry user information");
        }
        String host;
        String rest;
        if (authority.startsWith("[")) {
            int end = authority.indexOf(']');
            host = authority.substring(0, end + 1);
            rest = end < 0 ? "" : authority.substring(end + 1);
        } else {
            int colon = authority.indexOf(':');
            host = colon < 0 ? authority : authority.substring(0, colon);
            rest = colon < 0 ? "" : authority.substring(colon);
        }
        if (!LOOPBACK_HOSTS.contains(host.toLowerCase(Locale.ROOT))) {
            throw members.fail("url must name a loopback host (127.0.0.1, localhost or [::1])"
                    + (host.isEmpty() ? "" : ", not " + host));
        }
        if (!rest.isEmpty()) {
            String port = rest.substring(1);
            if (!rest.startsWith(":") || port.isEmpty() || !port.chars().allMatch(c -> c >= '0' && c <= '9')) {
                throw members.fail("url is not a URL");
            }
            String digits = port.replaceFirst("^0+(?=.)", "");
            if (digits.length() > 5 || Integer.parseInt(digits) > 65535) {
                throw members.fail("url is not a URL");
            }
            if (Integer.parseInt(digits) == 0) {
                throw members.fail("url has port 0, outside 1..65535");
            }
        }
        try {
            URI url = new URI(text);
            if (url.getHost() == null) {
                throw members.fail("url is not a URL");
            }
            return url;
        } catch (URISyntaxException e) {
            throw members.fail("url is not a URL");
        }
    }

    private static Duration timeout(Members top, JsonNode node) throws ScriptException {
        if (node.isNull()) {
            return null;
        }
        if (!node.isIntegralNumber() || !node.canConvertToLong() || node.longValue() <= 0 || node.longValue() > MAX_TIMEOUT_MS) {
            throw top.fail("request_timeout_ms must be null or a positive whole number of milliseconds");
        }
        return Duration.ofMillis(node.longValue());
    }

    /** What the steps before a given step leave behind, for the "used before" checks. */
    private record Scope(Set<String> open, Set<String> saved) {
        Scope copy() {
            return new Scope(new HashSet<>(open), new HashSet<>(saved));
        }
    }

    private static Step step(JsonNode raw, int index, Set<String> servers, Scope scope) throws ScriptException {
        if (!raw.isObject()) {
            throw new ScriptException("step " + index + ": ", "must be an object");
        }
        ObjectNode object = (ObjectNode) raw;
        if ("parallel".equals(object.path("op").textValue())) {
            return parallel(object, index, servers, scope);
        }
        return inner(object, StepId.top(index), servers, scope, scope);
    }

    /**
     * Inner steps of one parallel step run at the same time, so each sees only what the steps before the parallel step
     * left ({@code before}); what they open, close or save counts from the next step on ({@code after}).
     */
    private static Step parallel(ObjectNode raw, int index, Set<String> servers, Scope after) throws ScriptException {
        Members members = new Members("step " + index + " (parallel): ", raw, Op.PARALLEL::allows);
        JsonNode steps = raw.get("steps");
        if (steps == null || !steps.isArray() || steps.isEmpty()) {
            throw members.fail("steps must be a non-empty array");
        }
        Scope before = after.copy();
        Map<String, StepId> connections = new HashMap<>();
        Map<String, StepId> savedStates = new HashMap<>();
        List<Step> inner = new ArrayList<>();
        for (int i = 0; i < steps.size(); i++) {
            StepId id = StepId.top(index).inside(i);
            JsonNode child = steps.get(i);
            if (!child.isObject()) {
                throw new ScriptException("step " + id + ": ", "must be an object");
            }
            if ("parallel".equals(child.path("op").textValue())) {
                throw new ScriptException("step " + id + " (parallel): ", "a parallel step cannot contain another one");
            }
            Step step = inner((ObjectNode) child, id, servers, before, after);
            String where = "step " + id + " (" + step.op().wireName() + "): ";
            StepId earlier = connections.putIfAbsent(step.connection(), id);
            if (earlier != null) {
                throw new ScriptException(where, "connection \"" + step.connection() + "\" is already used by step "
                        + earlier + " of this parallel step");
            }
            // Java only (the other drivers let the later save win): which sibling's state is kept would be chance.
            StepId saver = step.saveState() == null ? null : savedStates.putIfAbsent(step.saveState(), id);
            if (saver != null) {
                throw new ScriptException(where, "state \"" + step.saveState() + "\" is already saved by step "
                        + saver + " of this parallel step");
            }
            inner.add(step);
        }
        return new Step(StepId.top(index), Op.PARALLEL, null, null, null, null, null, null, null, null, null, null, inner);
    }

    private static Step inner(ObjectNode raw, StepId id, Set<String> servers, Scope before, Scope after) throws ScriptException {
        if (!raw.has("op")) {
            throw new ScriptException("step " + id + ": ", "op is required");
        }
        JsonNode opNode = raw.get("op");
        Op op = opNode.isTextual() ? Op.byWireName(opNode.textValue()) : null;
        if (op == null || op == Op.PARALLEL) {
            throw new ScriptException("step " + id + ": ", "unknown op " + opNode);
        }
        Members members = new Members("step " + id + " (" + op.wireName() + "): ", raw, op::allows);
        String connection = members.string("connection");
        if (op == Op.CONNECT) {
            String server = members.string("server");
            if (!servers.contains(server)) {
                throw members.fail("unknown server \"" + server + "\"");
            }
            if (before.open().contains(connection)) {
                throw members.fail("connection \"" + connection + "\" is already connected");
            }
            after.open().add(connection);
            return new Step(id, op, connection, server, null, null, null, null, null, null, null, null, List.of());
        }
        if (!before.open().contains(connection)) {
            throw members.fail("connection \"" + connection + "\" is used before it is connected");
        }
        return switch (op) {
            case LIST_TOOLS -> new Step(id, op, connection, null, null, null, null, null, null, null, null, null, List.of());
            case CLOSE -> {
                after.open().remove(connection);
                yield new Step(id, op, connection, null, null, null, null, null, null, null, null, null, List.of());
            }
            case STATUS -> new Step(id, op, connection, null, null, null, null, null, null, null, null,
                    members.string("operation_id"), List.of());
            case CALL -> {
                String tool = members.string("tool");
                ObjectNode arguments = members.object("arguments");
                yield new Step(id, op, connection, null, tool, arguments, members.optionalObject("answer"),
                        null, null, null, null, null, List.of());
            }
            case CALL_ONCE -> callOnce(members, id, connection, before, after);
            case CONNECT, PARALLEL -> throw new IllegalStateException(op + " is read above");
        };
    }

    private static Step callOnce(Members members, StepId id, String connection, Scope before, Scope after)
            throws ScriptException {
        String tool = members.string("tool");
        ObjectNode arguments = members.object("arguments");
        ObjectNode inputResponses = members.optionalObject("input_responses");
        String state = members.optionalString("state");
        if (state != null && !before.saved().contains(state)) {
            throw members.fail("state \"" + state + "\" is used before it is saved");
        }
        if (state == null && members.has("state_transform")) {
            throw members.fail("state_transform needs a state");
        }
        StateTransform transform = StateTransform.byWireName(members.oneOf("state_transform", STATE_TRANSFORMS, "none"));
        String saveState = members.optionalString("save_state");
        members.oneOf("ts_api", TS_APIS, "callTool");
        if (saveState != null) {
            after.saved().add(saveState);
        }
        return new Step(id, Op.CALL_ONCE, connection, null, tool, arguments, null, inputResponses, state,
                state == null ? null : transform, saveState, null, List.of());
    }

    /**
     * One JSON object's members, any it does not know refused first: a misspelt optional member would otherwise
     * silently change what a step sends. A member given as null is present, and refused as the wrong type.
     */
    private static final class Members {
        private final String where;
        private final ObjectNode node;

        Members(String where, ObjectNode node, Predicate<String> allowed) throws ScriptException {
            this.where = where;
            this.node = node;
            for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
                String name = names.next();
                if (!allowed.test(name)) {
                    throw fail("unknown member \"" + name + "\"");
                }
            }
        }

        ScriptException fail(String problem) {
            return new ScriptException(where, problem);
        }

        boolean has(String name) {
            return node.has(name);
        }

        String string(String name) throws ScriptException {
            if (!has(name)) {
                throw fail(name + " is required");
            }
            JsonNode value = node.get(name);
            if (!value.isTextual() || value.textValue().isEmpty()) {
                throw fail(name + " must be a non-empty string");
            }
            return value.textValue();
        }

        String optionalString(String name) throws ScriptException {
            return has(name) ? string(name) : null;
        }

        /** A copy, so that what is sent is exactly what the script gave. */
        ObjectNode object(String name) throws ScriptException {
            if (!has(name)) {
                throw fail(name + " is required");
            }
            JsonNode value = node.get(name);
            if (!value.isObject()) {
                throw fail(name + " must be an object");
            }
            return (ObjectNode) value.deepCopy();
        }

        ObjectNode optionalObject(String name) throws ScriptException {
            return has(name) ? object(name) : null;
        }

        String oneOf(String name, List<String> allowed, String fallback) throws ScriptException {
            if (!has(name)) {
                return fallback;
            }
            JsonNode value = node.get(name);
            if (!value.isTextual() || !allowed.contains(value.textValue())) {
                throw fail(name + " must be one of "
                        + allowed.stream().map(a -> "\"" + a + "\"").collect(Collectors.joining(", ")));
            }
            return value.textValue();
        }
    }
}
