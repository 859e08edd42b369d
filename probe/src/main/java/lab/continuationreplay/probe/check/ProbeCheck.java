package lab.continuationreplay.probe.check;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Pattern;
import lab.continuationreplay.history.ArtifactHashes;
import lab.continuationreplay.history.EventStream;
import lab.continuationreplay.history.Format;
import lab.continuationreplay.history.FormatException;
import lab.continuationreplay.history.Layout;
import lab.continuationreplay.history.RunLog;
import lab.continuationreplay.history.Transcript;
import lab.continuationreplay.vectors.ExactJson;

/**
 * Derives {@code lab probe}'s verdicts from its history alone: {@code plan.json}, {@code history.jsonl} (the hashes of
 * {@code run/}, checked against the files), {@code run/events.jsonl}, the transcript and the kept database copies.
 * The runner's word counts for nothing: every reply an event names must be a frame the transcript received, and
 * every reading of a SQLite observer must be the row count of its kept copy, counted again here.
 */
public final class ProbeCheck {
    public static final String PLAN = "plan.json";
    public static final String RESULT = "probe.json";
    private static final String RUN = "run";
    private static final Pattern TABLE = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,62}");

    /** A check's verdict, in the words of docs/probe.md. */
    public enum Verdict {
        PASS, FAIL, WEAK, CANCELLED, UNOBSERVABLE, NOT_APPLICABLE;

        public String label() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }

    /**
     * What a failed or weak check found. {@code LOST}: refused, and the caller cannot learn the result; {@code
     * LOST_EFFECT}: an acknowledged call's effect is missing; {@code DIFFERENT_ANSWER} (weak): one effect, but the retry
     * answers otherwise, so the caller cannot tell what the first call did.
     */
    public enum Kind {
        DUPLICATE, LOST, LOST_EFFECT, ACCEPTED, FORGEABLE_STATE, ERROR, DIFFERENT_ANSWER, NOT_REDELIVERED, DUPLICATE_DELIVERY;

        public String label() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }

    /** One check's verdict, its kind when it failed, why, and the events that decided it. */
    public record Result(String check, Verdict verdict, Kind kind, String reason, List<Integer> events) {
        public String line() {
            return check + " " + verdict.label() + (kind == null ? "" : " " + kind.label()) + " " + reason;
        }
    }

    /**
     * The protocol version the run spoke, every verdict, and the problems that make the history unfit to judge (a
     * forgery, a missing file). A weak verdict is shown, and never fails the run.
     */
    public record Judgement(String protocol, List<Result> results, List<String> problems) {
        public Judgement(List<Result> results, List<String> problems) {
            this(null, results, problems);
        }

        public boolean anyFailed() {
            return results.stream().anyMatch(r -> r.verdict() == Verdict.FAIL);
        }

        public boolean ok() {
            return problems.isEmpty() && !anyFailed();
        }
    }

    /** The label of the first call's events, judged as p1 or s1 by the call's shape. */
    static final String FIRST = "first";

    private ProbeCheck() {}

    /** Whether {@code folder} is a probe run. */
    public static boolean isProbeRun(Path folder) {
        return Files.isRegularFile(folder.resolve(PLAN)) && Files.isDirectory(folder.resolve(RUN)) && planIs(folder, Format.PROBE_PLAN);
    }

    /** Whether the folder's plan.json carries {@code format}'s tag: a probe run and a proxy run both have a plan and a run/. */
    static boolean planIs(Path folder, Format format) {
        try {
            format.read(Files.readString(folder.resolve(PLAN), StandardCharsets.UTF_8), PLAN);
            return true;
        } catch (IOException | FormatException | IllegalArgumentException other) {
            return false;
        }
    }

    /** The verdicts, written as {@code probe.json} (never over an existing one). */
    public static Judgement deriveAndWrite(Path out) throws IOException {
        Judgement judgement = derive(out);
        Path file = out.resolve(RESULT);
        if (Files.exists(file)) {
            throw new IllegalArgumentException(file + " already exists; a derived file is never overwritten");
        }
        Files.writeString(file, document(judgement), StandardCharsets.UTF_8);
        return judgement;
    }

    /** The verdicts from the history, and whether the folder's {@code probe.json} says the same. */
    public static Judgement verify(Path out) throws IOException {
        Judgement derived = derive(out);
        List<String> problems = new ArrayList<>(derived.problems());
        Path file = out.resolve(RESULT);
        if (!Files.exists(file)) {
            problems.add("missing " + RESULT);
        } else if (!Files.readString(file, StandardCharsets.UTF_8).equals(document(derived))) {
            problems.add(RESULT + " differs from the verdicts derived from the history");
        }
        return new Judgement(derived.protocol(), derived.results(), problems);
    }

    /** The verdicts from the history alone; writes nothing. */
    public static Judgement derive(Path out) throws IOException {
        List<String> problems = new ArrayList<>();
        JsonNode plan;
        List<JsonNode> events = new ArrayList<>();
        try {
            plan = Format.PROBE_PLAN.read(Files.readString(out.resolve(PLAN), StandardCharsets.UTF_8), PLAN);
            Map<String, RunLog.Entry> history = RunLog.read(out.resolve(Layout.HISTORY), Layout.HISTORY);
            RunLog.Entry entry = history.get(RUN);
            if (entry == null) {
                return new Judgement(List.of(), List.of(Layout.HISTORY + " has no line for " + RUN + "/ (the run did not end)"));
            }
            if (!ArtifactHashes.of(out.resolve(RUN), out).equals(entry.artifactHashes())) {
                return new Judgement(List.of(), List.of(RUN + "/ differs from the hashes the run recorded in " + Layout.HISTORY));
            }
            if (entry.machineryError() != null) {
                problems.add("the run stopped: " + entry.machineryError());
            }
            List<String> lines = Files.readAllLines(out.resolve(RUN).resolve("events.jsonl"), StandardCharsets.UTF_8);
            for (int i = 0; i < lines.size(); i++) {
                events.add(Format.PROBE_EVENT.read(lines.get(i), RUN + "/events.jsonl: line " + (i + 1)));
            }
        } catch (FormatException e) {
            return new Judgement(List.of(), List.of(e.getMessage()));
        } catch (java.nio.file.NoSuchFileException e) {
            return new Judgement(List.of(), List.of("missing " + e.getFile()));
        }
        problems.addAll(witnessed(out, plan, events));
        if (!problems.isEmpty()) {
            return new Judgement(List.of(), problems);
        }
        Judge judge = new Judge(plan, events);
        boolean singleRound = singleRound(events);
        events.stream().filter(e -> e.path("kind").asText().equals("shape")).findFirst().ifPresent(shape -> {
            if (shape.path("detail").asText().equals("single-round") != singleRound) {
                problems.add("the run played the " + shape.path("detail").asText() + " checks, but its first call took "
                        + (singleRound ? "one round" : "more than one round"));
            }
        });
        if (!problems.isEmpty()) {
            return new Judgement(List.of(), problems);
        }
        List<Result> results = new ArrayList<>();
        for (JsonNode check : plan.path(singleRound ? "single_round_checks" : "checks")) {
            results.add(judge.check(check.asText()));
        }
        return new Judgement(protocol(events), results, problems);
    }

    /** Whether a template holds the placeholder {@code {{fresh}}} in some string. */
    static boolean holdsFresh(JsonNode template) {
        if (template.isTextual()) {
            return template.textValue().contains("{{fresh}}");
        }
        for (JsonNode child : template) {
            if (holdsFresh(child)) {
                return true;
            }
        }
        return false;
    }

    /** Whether the first call completed in its first round: a single-round tool, judged by the s checks. */
    private static boolean singleRound(List<JsonNode> events) {
        List<JsonNode> rounds = events.stream().filter(e -> e.path("check").asText().equals(FIRST)
                && e.path("kind").asText().equals("exchange") && e.path("role").asText().startsWith("round-")).toList();
        if (rounds.size() != 1) {
            return false;
        }
        JsonNode result = rounds.get(0).path("reply").path("result");
        return result.isObject() && !"input_required".equals(result.path("resultType").asText());
    }

    /**
     * The protocol version the run spoke: the one the server answered {@code initialize} with (the handshake before
     * 2026-07-28), else the one its requests carried in their _meta (2026-07-28 puts it in every request).
     */
    private static String protocol(List<JsonNode> events) {
        String initialized = events.stream().filter(e -> e.path("kind").asText().equals("exchange")
                && e.path("role").asText().equals("initialize") && e.path("reply").path("result").path("protocolVersion").isTextual())
                .map(e -> e.path("reply").path("result").path("protocolVersion").asText()).findFirst().orElse(null);
        if (initialized != null) {
            return initialized;
        }
        return events.stream().filter(e -> e.path("kind").asText().equals("exchange"))
                .map(e -> e.path("request").path("params").path("_meta").path("io.modelcontextprotocol/protocolVersion").asText(""))
                .filter(v -> !v.isEmpty()).findFirst().orElse("unknown");
    }

    /** Every reply an event names is a frame the transcript received; every SQLite reading is its copy's count. */
    private static List<String> witnessed(Path out, JsonNode plan, List<JsonNode> events) throws IOException {
        List<String> problems = new ArrayList<>();
        // every server process's transcript: p7 starts a second one
        List<JsonNode> sent = new ArrayList<>();
        List<JsonNode> received = new ArrayList<>();
        try (java.util.stream.Stream<Path> files = Files.list(out.resolve(RUN))) {
            for (Path transcript : files.filter(f -> f.getFileName().toString().endsWith(Layout.TRANSCRIPT_SUFFIX)).sorted().toList()) {
                sent.addAll(frames(transcript, Transcript.Direction.SENT));
                received.addAll(frames(transcript, Transcript.Direction.RECEIVED));
            }
        }
        for (JsonNode event : events) {
            JsonNode reply = event.path("reply");
            if (event.path("kind").asText().equals("exchange") && !sent.remove(event.path("request"))) {
                problems.add("event " + event.path("seq").asInt() + ": its request is not a frame the transcript sent");
            }
            if (event.path("kind").asText().equals("exchange") && reply.isObject()) {
                if (!reply.path("id").toString().equals(event.path("request").path("id").toString())) {
                    problems.add("event " + event.path("seq").asInt() + ": its reply answers another request");
                } else if (!received.remove(reply)) {
                    problems.add("event " + event.path("seq").asInt() + ": its reply is not a frame the transcript received");
                }
            }
            if (event.path("kind").asText().equals("resumed")) {
                for (JsonNode delivery : event.path("deliveries")) {
                    if (!received.remove(delivery)) {
                        problems.add("event " + event.path("seq").asInt() + ": a redelivered reply is not a frame the transcript received");
                    }
                }
            }
            if (event.path("kind").asText().equals("observe") && plan.path("observer").path("kind").asText().equals("tool")
                    && !event.path("value").isNull()) {
                // the count is the tool's reply in the exchange it names, read again here
                int asked = event.path("exchange_seq").asInt(-1);
                JsonNode exchange = events.stream().filter(e -> e.path("seq").asInt() == asked).findFirst().orElse(null);
                Long counted = exchange == null ? null : lab.continuationreplay.history.ToolCount.of(exchange.path("reply"));
                if (counted == null || counted != event.path("value").asLong()) {
                    problems.add("event " + event.path("seq").asInt() + ": it reads " + event.path("value").asLong()
                            + ", the tool's recorded answer says " + (counted == null ? "no count" : counted));
                }
            }
            if (event.path("kind").asText().equals("observe") && plan.path("observer").path("kind").asText().equals("sqlite")
                    && event.path("value").isIntegralNumber() && (event.has("copy") || event.path("value").asLong() != 0)) {
                // a reading of 0 without a copy: the database or its table did not exist yet
                String table = plan.path("observer").path("table").asText();
                Long counted = count(out.resolve(RUN).resolve(event.path("copy").asText("")), table);
                if (counted == null || counted != event.path("value").asLong()) {
                    problems.add("event " + event.path("seq").asInt() + ": it reads " + event.path("value").asLong()
                            + " rows, its kept copy holds " + (counted == null ? "none" : counted));
                }
            }
        }
        return problems;
    }

    /** Every JSON frame the transcript sent or received: stdio lines, or HTTP bodies (JSON or event-stream data). */
    private static List<JsonNode> frames(Path transcript, Transcript.Direction direction) throws IOException {
        List<JsonNode> frames = new ArrayList<>();
        if (!Files.exists(transcript)) {
            return frames;
        }
        List<Transcript.Line> lines;
        try {
            lines = Transcript.read(transcript);
        } catch (FormatException e) {
            return frames;
        }
        boolean eventStream = false;
        for (Transcript.Line line : lines) {
            if (line.direction() != direction || line.text() == null) {
                continue;
            }
            if (line.kind() == Transcript.Kind.HEAD) {
                eventStream = eventStream(line.text());
                continue;
            }
            if (line.kind() != Transcript.Kind.BODY) {
                continue;
            }
            for (String candidate : eventStream ? EventStream.data(line.text()) : List.of(line.text())) {
                try {
                    frames.add(ExactJson.parse(candidate));
                } catch (IllegalArgumentException notJson) {
                    // a line that is no frame proves nothing
                }
            }
            eventStream = false;
        }
        return frames;
    }

    /** Whether an HTTP head (as the transcript records it) says its body is an event stream. */
    private static boolean eventStream(String head) {
        try {
            for (JsonNode header : ExactJson.parse(head).path("headers")) {
                if (header.path(0).asText().equalsIgnoreCase("Content-Type")) {
                    return header.path(1).asText().toLowerCase(Locale.ROOT).startsWith("text/event-stream");
                }
            }
        } catch (IllegalArgumentException notJson) {
            // no head this lab wrote: its body is read as JSON
        }
        return false;
    }

    private static Long count(Path copy, String table) {
        if (!TABLE.matcher(table).matches() || !Files.isRegularFile(copy)) {
            return null;
        }
        Properties readOnly = new Properties();
        readOnly.setProperty("open_mode", "1");
        // immutable: reading evidence must not create a -wal or -shm file beside it (the folder's hashes would change)
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:file:" + copy + "?immutable=1", readOnly);
                Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery("SELECT COUNT(*) FROM \"" + table + "\"")) {
            result.next();
            return result.getLong(1);
        } catch (SQLException e) {
            return null;
        }
    }

    private static String document(Judgement judgement) {
        ObjectNode document = Format.PROBE.document();
        if (judgement.protocol() != null) {
            document.put("protocol", judgement.protocol());
        }
        ArrayNode checks = document.putArray("checks");
        for (Result result : judgement.results()) {
            ObjectNode check = checks.addObject();
            check.put("id", result.check());
            check.put("verdict", result.verdict().label());
            if (result.kind() == null) {
                check.putNull("kind");
            } else {
                check.put("kind", result.kind().label());
            }
            check.put("reason", result.reason());
            result.events().forEach(check.withArray("events")::add);
        }
        document.set("problems", ExactJson.mapper().valueToTree(judgement.problems()));
        document.put("ok", judgement.ok());
        try {
            return ExactJson.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(document) + "\n";
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
