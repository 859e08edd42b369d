package lab.continuationreplay.probe.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import lab.continuationreplay.probe.check.ProbeCheck;
import lab.continuationreplay.history.HttpHead.Header;
import lab.continuationreplay.probe.ProbeInputException;
import lab.continuationreplay.probe.ProbeOptions;
import lab.continuationreplay.probe.ProbeRunner;
import lab.continuationreplay.probe.report.ProbeReport;
import lab.continuationreplay.vectors.ExactJson;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code probe}: the options, the run, the checker and the report, for any server by command or URL. The lab's
 * command ({@code ./lab probe}) extends it with {@code --server}, presets for the lab's own servers; the probe's own
 * jar ({@code java -jar lab-probe.jar probe}) runs it as it is, on a machine with only a JDK.
 */
@Command(
        name = "probe",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Asks any MCP server the lab's question: does a retry after a lost reply commit twice? Points at a stdio"
                    + " server (--command) or a Streamable HTTP one (--url), calls one multi-round tool (input_required,"
                    + " then the continuation) with fresh values per call, counts the effects with an observer, and plays"
                    + " the checks: p1 one call, one effect; p2a the final reply lost, the same round again; p2b the final"
                    + " round cut at once; p3 twenty first sends at once; p4 the state replayed with changed arguments; p5"
                    + " tampered states; p6 the state sent by another principal; p7 the final reply lost and the server"
                    + " restarted; p8 a new call; p9 the state replayed with changed answers; p10 the state after its lifetime."
                    + " A tool that completes in one round gets s1 one call; s2 the reply lost, the same call again; s3 twenty"
                    + " identical calls at once; s4 the reply lost and the server restarted; s5 a new call; s8 twenty fresh"
                    + " calls at once, every acknowledged effect kept; with --key-arg s6 the key with changed arguments, s6b"
                    + " under another principal, s7 (--slow-args) while the first call runs; over stdio s9 two processes of the"
                    + " server, ten calls each, every acknowledged effect kept.",
            "Writes a history to --out (every exchange byte for byte, every reading, kept database copies); the checker"
                    + " derives each verdict from it (probe.json, shown in report.html; `verify DIR` derives them again). First the"
                    + " protocol version, then one line per check: CHECK pass|fail|weak|cancelled|unobservable|not-applicable"
                    + " [duplicate|lost|lost-effect|accepted|forgeable-state|error|different-answer] reason.",
            "Exit 0 if no check failed (weak ones do not), 1 if one did, 2 for bad input (one line naming the cause and the option).",
            "Example, a stdio server that keeps its orders in SQLite, with an idempotency key per call:",
            "  probe --command 'python3 server.py orders.db' --tool create_order \\",
            "      --args '{\"order_id\":\"o-{{fresh}}\",\"item\":\"book\"}' --effects-sqlite orders.db orders",
            "and one over Streamable HTTP with a bearer token, restarted by a script for p7:",
            "  probe --url http://127.0.0.1:8080/mcp --header \"Authorization: Bearer $TOKEN\" --restart-cmd ./restart.sh \\",
            "      --tool create_order --args '{\"order_id\":\"o-{{fresh}}\"}' --effects-cmd 'sqlite3 orders.db \"select count(*) from orders\"'",
            "See docs/probe.md."
        })
public class ProbeCli implements Callable<Integer> {
    @Option(names = "--command", paramLabel = "CMD", description = "A stdio server, started with sh -c CMD; its stdin stays open until the probe is done.")
    protected String command;

    @Option(names = "--url", paramLabel = "URL", description = "A Streamable HTTP endpoint (loopback only unless --allow-remote).")
    protected String url;

    @Option(names = "--header", paramLabel = "'Name: value'", description = "A header for every request to --url (repeatable); its value is never written anywhere.")
    List<String> headers = new ArrayList<>();

    @Option(names = "--allow-remote", description = "Let --url name a host other than loopback.")
    boolean allowRemote;

    @Option(names = "--other-env", paramLabel = "K=V", description = "With --command: p6 starts a second server process with"
            + " these variables changed (repeatable), as another principal; the values are never written anywhere.")
    protected List<String> otherEnvironment = new ArrayList<>();

    @Option(names = "--other-header", paramLabel = "'Name: value'", description = "With --url: p6 sends the state with this"
            + " header in place of the one of its name (repeatable), as another principal.")
    List<String> otherHeaders = new ArrayList<>();

    @Option(names = "--restart-cmd", paramLabel = "CMD", description = "With --url: restarts the server for p7 (sh -c CMD; the probe"
            + " then waits until it answers). Without it p7 is not-applicable over HTTP; over stdio the probe kills and restarts the server itself.")
    String restartCommand;

    @Option(names = "--tool", paramLabel = "NAME", description = "The multi-round tool to call.")
    protected String tool;

    @Option(names = "--args", paramLabel = "JSON", description = "Its arguments; {{fresh}} inside a string is a new value per call, kept on every retry of that call.")
    protected String arguments;

    @Option(names = "--answer", paramLabel = "KEY=JSON", description = "The whole input response for input request KEY (repeatable); others get a default from their schema.")
    List<String> answers = new ArrayList<>();

    @Option(names = "--effects-cmd", paramLabel = "CMD", description = "Counts the effects: sh -c CMD prints one integer.")
    protected String effectsCommand;

    @Option(names = "--effects-tool", paramLabel = "NAME", description = "Counts the effects: an MCP tool of the same server,"
            + " called with no arguments, answering the count (structuredContent.count, its only integer, or a text that is one integer).")
    protected String effectsTool;

    @Option(names = "--effects-sqlite", arity = "2", paramLabel = "FILE TABLE", description = "Counts the rows of TABLE in the SQLite FILE (read-only; a copy is kept in the history).")
    protected List<String> effectsSqlite;

    @Option(names = "--changed-args", paramLabel = "JSON", description = "The arguments p4 replays a state with (default: one string argument changed).")
    protected String changedArguments;

    @Option(names = "--key-arg", paramLabel = "NAME", description = "The argument carrying the client's idempotency key (in the"
            + " tool's input schema, holding {{fresh}}): a single-round tool then also gets s6 (the key with changed"
            + " arguments), s6b (the key under another principal) and, with --slow-args, s7 (the key again while the first call runs).")
    String keyArg;

    @Option(names = "--slow-args", paramLabel = "JSON", description = "With --key-arg: arguments that keep the tool running at least"
            + " two seconds, for s7.")
    String slowArgs;

    @Option(names = "--ignore-keys", paramLabel = "A,B", description = "Result keys that may differ on a replay, removed at any"
            + " depth before results are compared (default: replayed,_meta; an empty list compares everything).")
    String ignoreKeys;

    @Option(names = "--state-ttl", paramLabel = "SECONDS", description = "The server's state lifetime: p10 waits it out and"
            + " sends the final round again (without it p10 is not-applicable).")
    Long stateTtlSeconds;

    @Option(names = "--request-timeout-ms", paramLabel = "MS", description = "How long a request may wait for its reply (default: 10000).")
    long requestTimeoutMs = 10_000;

    @Option(names = "--config", paramLabel = "FILE", description = "A JSON object of these options by their names without"
            + " the dashes (\"url\", \"tool\", \"args\", \"answer\": {KEY: JSON}, \"effects-sqlite\": [FILE, TABLE], ...);"
            + " an option on the command line wins over the file.")
    Path config;

    @Option(names = "--out", paramLabel = "DIR", description = "A new or empty folder for the history (default: target/attempts/probe-<UTC time>).")
    protected Path out;

    @Override
    public Integer call() throws Exception {
        try {
            if (config != null) {
                configure(config);
            }
            Path folder = folder(out);
            Map<String, String> environment = new LinkedHashMap<>();
            ProbeOptions options = preset(folder, environment);
            if (options == null) {
                options = options(folder);
            }
            ProbeRunner.run(options, environment);
            ProbeCheck.Judgement judgement = ProbeCheck.deriveAndWrite(folder);
            ProbeReport.write(folder);
            stdout().println("protocol " + judgement.protocol());
            judgement.results().forEach(r -> stdout().println(r.line()));
            judgement.problems().forEach(p -> stdout().println("problem " + p));
            stdout().println("evidence " + folder);
            stdout().flush();
            return judgement.ok() ? 0 : 1;
        } catch (ProbeInputException e) {
            stderr().println(name() + ": " + e.getMessage());
            stderr().flush();
            return 2;
        }
    }

    /** The folder of the run: {@code out}, or {@code probe-<UTC time>} in the working directory. */
    protected Path folder(Path given) {
        return given != null ? given.toAbsolutePath().normalize() : Path.of("probe-" + ZonedDateTime.now(ZoneOffset.UTC)
                .format(DateTimeFormatter.ofPattern("uuuuMMdd'T'HHmmss'Z'"))).toAbsolutePath();
    }

    /** The options of a preset when one was chosen, else null; the probe alone has none. */
    protected ProbeOptions preset(Path folder, Map<String, String> environment) {
        return null;
    }

    /** A config file's {@code "server"} key: a preset, which only the lab's checkout has. */
    protected void configureServer(String value) {
        throw new ProbeInputException("--config: \"server\" names a preset of the lab's own servers, which only ./lab probe in"
                + " a checkout of the lab has; give \"command\" or \"url\"");
    }

    /** How errors begin: {@code lab probe} in the lab, {@code probe} in the probe's own jar. */
    protected String name() {
        return "probe";
    }

    protected PrintStream stdout() {
        return OUT;
    }

    protected PrintStream stderr() {
        return ERR;
    }

    private static final PrintStream OUT = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), false,
            StandardCharsets.UTF_8);
    private static final PrintStream ERR = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.err), true,
            StandardCharsets.UTF_8);

    /** Fills every option the command line left unset from the config file; a key that is no option is bad input. */
    private void configure(Path file) {
        JsonNode document;
        try {
            document = ExactJson.parse(java.nio.file.Files.readString(file));
        } catch (java.io.IOException e) {
            throw new ProbeInputException("--config " + file + ": " + e.getMessage());
        } catch (IllegalArgumentException e) {
            throw new ProbeInputException("--config " + file + " is not JSON: " + e.getMessage());
        }
        if (!document.isObject()) {
            throw new ProbeInputException("--config " + file + " must be a JSON object of options");
        }
        var fields = document.fields();
        while (fields.hasNext()) {
            var field = fields.next();
            JsonNode value = field.getValue();
            switch (field.getKey()) {
                case "command" -> command = command != null ? command : text(field.getKey(), value);
                case "url" -> url = url != null ? url : text(field.getKey(), value);
                case "header" -> headers = !headers.isEmpty() ? headers : texts(field.getKey(), value);
                case "allow-remote" -> allowRemote |= value.asBoolean(false);
                case "other-env" -> otherEnvironment = !otherEnvironment.isEmpty() ? otherEnvironment : texts(field.getKey(), value);
                case "other-header" -> otherHeaders = !otherHeaders.isEmpty() ? otherHeaders : texts(field.getKey(), value);
                case "restart-cmd" -> restartCommand = restartCommand != null ? restartCommand : text(field.getKey(), value);
                case "server" -> configureServer(text(field.getKey(), value));
                case "tool" -> tool = tool != null ? tool : text(field.getKey(), value);
                case "args" -> arguments = arguments != null ? arguments : value.isTextual() ? value.textValue() : value.toString();
                case "answer" -> {
                    if (answers.isEmpty()) {
                        if (!value.isObject()) {
                            throw new ProbeInputException("--config: \"answer\" must be an object of KEY: the whole input response");
                        }
                        value.fields().forEachRemaining(a -> answers.add(a.getKey() + "=" + a.getValue()));
                    }
                }
                case "effects-cmd" -> effectsCommand = effectsCommand != null ? effectsCommand : text(field.getKey(), value);
                case "effects-tool" -> effectsTool = effectsTool != null ? effectsTool : text(field.getKey(), value);
                case "effects-sqlite" -> {
                    List<String> pair = texts(field.getKey(), value);
                    if (pair.size() != 2) {
                        throw new ProbeInputException("--config: \"effects-sqlite\" must be [FILE, TABLE]");
                    }
                    effectsSqlite = effectsSqlite != null ? effectsSqlite : pair;
                }
                case "changed-args" -> changedArguments = changedArguments != null ? changedArguments
                        : value.isTextual() ? value.textValue() : value.toString();
                case "key-arg" -> keyArg = keyArg != null ? keyArg : text(field.getKey(), value);
                case "slow-args" -> slowArgs = slowArgs != null ? slowArgs : value.isTextual() ? value.textValue() : value.toString();
                case "ignore-keys" -> ignoreKeys = ignoreKeys != null ? ignoreKeys : String.join(",", texts(field.getKey(), value));
                case "state-ttl" -> stateTtlSeconds = stateTtlSeconds != null ? stateTtlSeconds : number(field.getKey(), value);
                case "request-timeout-ms" -> requestTimeoutMs = requestTimeoutMs != 10_000 ? requestTimeoutMs : number(field.getKey(), value);
                case "out" -> out = out != null ? out : Path.of(text(field.getKey(), value));
                default -> throw new ProbeInputException("--config: \"" + field.getKey() + "\" is not an option of " + name());
            }
        }
    }

    private static String text(String key, JsonNode value) {
        if (!value.isTextual()) {
            throw new ProbeInputException("--config: \"" + key + "\" must be a string");
        }
        return value.textValue();
    }

    private static List<String> texts(String key, JsonNode value) {
        if (value.isTextual()) {
            return new ArrayList<>(List.of(value.textValue()));
        }
        List<String> list = new ArrayList<>();
        if (value.isArray()) {
            for (JsonNode item : value) {
                list.add(text(key, item));
            }
            return list;
        }
        throw new ProbeInputException("--config: \"" + key + "\" must be a string or a list of strings");
    }

    private static long number(String key, JsonNode value) {
        if (!value.isIntegralNumber()) {
            throw new ProbeInputException("--config: \"" + key + "\" must be a whole number");
        }
        return value.longValue();
    }

    private ProbeOptions options(Path folder) {
        if ((command == null) == (url == null)) {
            throw new ProbeInputException("name the server: --command 'CMD' (stdio) or --url URL (Streamable HTTP), one of them");
        }
        if (command != null && (!headers.isEmpty() || allowRemote || restartCommand != null || !otherHeaders.isEmpty())) {
            throw new ProbeInputException("--header, --other-header, --allow-remote and --restart-cmd go with --url, not --command");
        }
        if (url != null && !otherEnvironment.isEmpty()) {
            throw new ProbeInputException("--other-env goes with --command; with --url give --other-header");
        }
        ProbeOptions.Target target = command != null ? new ProbeOptions.Target.Command(command, otherEnvironment()) : urlTarget();
        return new ProbeOptions(target, tool, json("--args", arguments == null ? "{}" : arguments), answers(), observer(),
                changedArguments == null ? null : json("--changed-args", changedArguments), folder, tuning(), key());
    }

    private ProbeOptions.Target urlTarget() {
        URI endpoint;
        try {
            endpoint = new URI(url);
        } catch (URISyntaxException e) {
            throw new ProbeInputException("--url " + url + " is not a URL: " + e.getMessage());
        }
        return new ProbeOptions.Target.Url(endpoint, headers("--header", headers), allowRemote, restartCommand,
                headers("--other-header", otherHeaders));
    }

    private static List<Header> headers(String option, List<String> given) {
        List<Header> parsed = new ArrayList<>();
        for (String header : given) {
            int colon = header.indexOf(':');
            if (colon < 1 || header.substring(0, colon).isBlank() || !header.substring(0, colon).matches("[!#$%&'*+.^_`|~0-9A-Za-z-]+")) {
                throw new ProbeInputException(option + " must read 'Name: value' (a token name, a colon, the value); one did not");
            }
            parsed.add(new Header(header.substring(0, colon), header.substring(colon + 1).strip()));
        }
        return parsed;
    }

    protected Map<String, String> otherEnvironment() {
        Map<String, String> parsed = new LinkedHashMap<>();
        for (String variable : otherEnvironment) {
            int equals = variable.indexOf('=');
            if (equals < 1 || !variable.substring(0, equals).matches("[A-Za-z_][A-Za-z0-9_]*")) {
                throw new ProbeInputException("--other-env must read NAME=value; one did not");
            }
            parsed.put(variable.substring(0, equals), variable.substring(equals + 1));
        }
        return parsed;
    }

    protected Map<String, JsonNode> answers() {
        Map<String, JsonNode> parsed = new LinkedHashMap<>();
        for (String answer : answers) {
            int equals = answer.indexOf('=');
            if (equals < 1) {
                throw new ProbeInputException("--answer must read KEY=JSON, the whole input response for KEY");
            }
            parsed.put(answer.substring(0, equals), json("--answer " + answer.substring(0, equals), answer.substring(equals + 1)));
        }
        return parsed;
    }

    private ProbeOptions.Observer observer() {
        if ((effectsCommand != null ? 1 : 0) + (effectsSqlite != null ? 1 : 0) + (effectsTool != null ? 1 : 0) > 1) {
            throw new ProbeInputException("one observer: --effects-cmd, --effects-tool or --effects-sqlite");
        }
        if (effectsTool != null) {
            return new ProbeOptions.Observer.ToolCount(effectsTool);
        }
        if (effectsCommand != null) {
            return new ProbeOptions.Observer.ShellCount(effectsCommand);
        }
        if (effectsSqlite != null) {
            return new ProbeOptions.Observer.SqliteRows(Path.of(effectsSqlite.get(0)).toAbsolutePath(), effectsSqlite.get(1));
        }
        return new ProbeOptions.Observer.None();
    }

    /** The idempotency key options: --slow-args without --key-arg is bad input. */
    protected ProbeOptions.Key key() {
        if (keyArg == null) {
            if (slowArgs != null) {
                throw new ProbeInputException("--slow-args goes with --key-arg NAME (the argument of the key it sends twice)");
            }
            return null;
        }
        return new ProbeOptions.Key(keyArg, slowArgs == null ? null : json("--slow-args", slowArgs));
    }

    protected ProbeOptions.Tuning tuning() {
        if (requestTimeoutMs < 100 || requestTimeoutMs > 600_000) {
            throw new ProbeInputException("--request-timeout-ms must be between 100 and 600000");
        }
        List<String> ignored = ignoreKeys == null ? ProbeOptions.Tuning.DEFAULT_IGNORED_KEYS
                : List.of(ignoreKeys.split(",", -1)).stream().map(String::strip).filter(k -> !k.isEmpty()).toList();
        return new ProbeOptions.Tuning(Duration.ofMillis(requestTimeoutMs), ignored, stateTtlSeconds == null ? null
                : Duration.ofSeconds(stateTtlSeconds));
    }

    protected static JsonNode json(String option, String text) {
        try {
            return ExactJson.parse(text);
        } catch (IllegalArgumentException e) {
            throw new ProbeInputException(option + " is not JSON: " + e.getMessage());
        }
    }
}
