package lab.continuationreplay.probe;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import lab.continuationreplay.history.HttpHead.Header;

/**
 * What {@code lab probe} is pointed at and how it reads effects. The probe knows nothing of the lab's own servers: a
 * preset for them is one value of these options.
 *
 * @param arguments the tool's arguments; {@code {{fresh}}} inside a string becomes a new value per call
 * @param answers   whole input responses by input-request key; a key not given gets a default ({@link InputAnswers})
 * @param changedArguments the arguments a replayed state is sent with in p4 (null: one string argument changed)
 * @param key              the argument that carries the client's idempotency key, for s6, s6b and s7 (null: none)
 */
public record ProbeOptions(Target target, String tool, JsonNode arguments, Map<String, JsonNode> answers, Observer observer,
        JsonNode changedArguments, Path out, Tuning tuning, Key key) {

    public ProbeOptions(Target target, String tool, JsonNode arguments, Map<String, JsonNode> answers, Observer observer,
            JsonNode changedArguments, Path out, Tuning tuning) {
        this(target, tool, arguments, answers, observer, changedArguments, out, tuning, null);
    }

    /**
     * The idempotency key of a single-round tool: the argument {@code argument}, which must hold {@code {{fresh}}}, and
     * arguments that keep the tool running at least two seconds ({@code slowArguments}, for s7; null: s7 not played).
     */
    public record Key(String argument, JsonNode slowArguments) {
        public Key {
            if (argument == null || argument.isBlank()) {
                throw new ProbeInputException("--key-arg needs the name of an argument");
            }
            if (slowArguments != null && !slowArguments.isObject()) {
                throw new ProbeInputException("--slow-args must be a JSON object of the tool's arguments");
            }
        }
    }

    public ProbeOptions {
        answers = Map.copyOf(answers);
        if (tool == null || tool.isBlank()) {
            throw new ProbeInputException("name the tool to probe (--tool NAME)");
        }
        if (arguments == null || !arguments.isObject()) {
            throw new ProbeInputException("--args must be a JSON object of the tool's arguments");
        }
        if (changedArguments != null && !changedArguments.isObject()) {
            throw new ProbeInputException("--changed-args must be a JSON object of the tool's arguments");
        }
        if (key != null && !FreshValues.used(arguments.path(key.argument()))) {
            throw new ProbeInputException("--key-arg " + key.argument() + ": its value in --args must hold {{fresh}}, a new key per call");
        }
        if (key != null && key.slowArguments() != null && !FreshValues.used(key.slowArguments().path(key.argument()))) {
            throw new ProbeInputException("--slow-args: its " + key.argument() + " must hold {{fresh}}, as in --args");
        }
    }

    /** The request timeout shortcut: most of the probe reads it. */
    public Duration requestTimeout() {
        return tuning.requestTimeout();
    }

    /**
     * How the probe waits and compares.
     *
     * @param ignoredKeys result keys that may differ on a replay (removed at any depth before two results are compared)
     * @param stateTtl    the server's state lifetime, for p10 (null: p10 is not-applicable)
     */
    public record Tuning(Duration requestTimeout, List<String> ignoredKeys, Duration stateTtl) {
        public static final List<String> DEFAULT_IGNORED_KEYS = List.of("replayed", "_meta");

        public Tuning {
            ignoredKeys = List.copyOf(ignoredKeys);
            if (stateTtl != null && (stateTtl.isNegative() || stateTtl.toSeconds() > 3600)) {
                throw new ProbeInputException("--state-ttl must be between 0 and 3600 seconds");
            }
        }

        public static Tuning defaults(Duration requestTimeout) {
            return new Tuning(requestTimeout, DEFAULT_IGNORED_KEYS, null);
        }
    }

    /** Where the server is. */
    public sealed interface Target {
        /**
         * A stdio server: {@code sh -c command}, its stdin held open until the probe is done. {@code otherEnvironment}
         * (may be empty) starts a second process as another principal for p6; its values are never written anywhere.
         */
        record Command(String command, Map<String, String> otherEnvironment) implements Target {
            public Command {
                if (command == null || command.isBlank()) {
                    throw new ProbeInputException("--command needs the command that starts the server");
                }
                otherEnvironment = Map.copyOf(otherEnvironment);
            }

            public Command(String command) {
                this(command, Map.of());
            }
        }

        /**
         * A Streamable HTTP endpoint; {@code headers} go to it only, and no value of theirs into the evidence.
         * {@code restartCommand} ({@code sh -c}, may be null) restarts the server for p7.
         */
        record Url(URI url, List<Header> headers, boolean remoteAllowed, String restartCommand, List<Header> otherHeaders)
                implements Target {
            public Url {
                headers = List.copyOf(headers);
                otherHeaders = List.copyOf(otherHeaders);
            }

            /** The headers another principal sends (p6): the user's, each replaced by an other header of its name. */
            public List<Header> asOther() {
                java.util.List<Header> other = new java.util.ArrayList<>(headers.stream()
                        .filter(h -> otherHeaders.stream().noneMatch(o -> o.name().equalsIgnoreCase(h.name()))).toList());
                other.addAll(otherHeaders);
                return other;
            }
        }
    }

    /** How the probe counts the effects a call commits. */
    public sealed interface Observer {
        /** {@code sh -c command} printing one integer. */
        record ShellCount(String command) implements Observer {}

        /** An MCP tool of the same server, called with no arguments, whose reply holds the count. */
        record ToolCount(String tool) implements Observer {
            public ToolCount {
                if (tool == null || tool.isBlank()) {
                    throw new ProbeInputException("--effects-tool needs the name of the tool that counts");
                }
            }
        }

        /** The rows of {@code table} in the SQLite file {@code database}, read-only; a copy of the file is kept. */
        record SqliteRows(Path database, String table) implements Observer {}

        /** No observer: every effect check says {@code unobservable}, never {@code pass}. */
        record None() implements Observer {}
    }
}
