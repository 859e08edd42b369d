package lab.continuationreplay.probe.check;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
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
    private static final String FIRST = "first";

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
    private static boolean holdsFresh(JsonNode template) {
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

    /** The verdicts, one check at a time, from its events. */
    private static final class Judge {
        private final JsonNode plan;
        private final List<JsonNode> events;
        private final Set<String> ignored = new java.util.HashSet<>();
        /** Whether the arguments hold a {{fresh}} value: without one every call is the same call. */
        private final boolean fresh;

        Judge(JsonNode plan, List<JsonNode> events) {
            this.plan = plan;
            this.events = events;
            this.fresh = holdsFresh(plan.path("arguments"));
            plan.path("ignore_keys").forEach(k -> ignored.add(k.asText()));
        }

        Result check(String id) {
            String label = id.equals("p1") || id.equals("s1") ? FIRST : id;
            List<JsonNode> own = events.stream().filter(e -> e.path("check").asText().equals(label)).toList();
            List<Integer> seq = own.stream().map(e -> e.path("seq").asInt()).toList();
            if (own.isEmpty()) {
                return new Result(id, Verdict.FAIL, Kind.ERROR, "the run stopped before this check", seq);
            }
            JsonNode notApplicable = own.stream().filter(e -> e.path("kind").asText().equals("not-applicable")).findFirst().orElse(null);
            if (notApplicable != null) {
                return new Result(id, Verdict.NOT_APPLICABLE, null, notApplicable.path("detail").asText(), seq);
            }
            Observed effects = new Observed(own);
            return switch (id) {
                case "p1", "s1" -> p1(id, own, effects, seq);
                case "p2a", "s2" -> p2a(id, own, effects, seq);
                case "p2b" -> p2b(own, effects, seq);
                case "p3", "s3" -> p3(id, own, effects, seq);
                case "p4" -> replayed(id, own, effects, seq, false);
                case "p5" -> p5(own, effects, seq);
                case "p6" -> p6(own, effects, seq);
                case "p7", "s4" -> p7(id, own, effects, seq);
                case "p8", "s5" -> p8(id, own, effects, seq);
                case "p9" -> replayed(id, own, effects, seq, true);
                case "p10" -> p10(own, effects, seq);
                case "s8" -> s8(own, effects, seq);
                case "s6" -> keyRefused(id, own, effects, seq, "replay", "the key with changed arguments");
                case "s6b" -> keyRefused(id, own, effects, seq, "other principal", "another principal's call with the key");
                case "s7" -> s7(own, effects, seq);
                case "s9" -> s9(own, effects, seq);
                case "r1" -> r1(own, effects, seq);
                default -> new Result(id, Verdict.FAIL, Kind.ERROR, "no such check", seq);
            };
        }

        private Result p1(String id, List<JsonNode> own, Observed effects, List<Integer> seq) {
            JsonNode last = last(exchanges(own, "round-"));
            if (!complete(last)) {
                return new Result(id, Verdict.FAIL, Kind.ERROR, "the call did not complete: " + shown(last), seq);
            }
            if (id.equals("s1") && !fresh) {
                return new Result(id, Verdict.NOT_APPLICABLE, null, "the arguments hold no {{fresh}} value, so the call"
                        + " may find its effect already there", seq);
            }
            Long delta = effects.delta("before", "after");
            if (delta == null) {
                return unobservable(id, effects, seq);
            }
            return delta == 1 ? new Result(id, Verdict.PASS, null, "one complete call, one effect", seq)
                    : new Result(id, Verdict.FAIL, Kind.ERROR, "one complete call, " + delta + " effects", seq);
        }

        /**
         * p2a and s2: the reply discarded, the same request again. On a single-round tool a retry that commits nothing
         * but answers otherwise is weak (different-answer): no harm done, but the caller cannot tell what happened.
         */
        private Result p2a(String id, List<JsonNode> own, Observed effects, List<Integer> seq) {
            JsonNode discarded = discarded(own);
            JsonNode retry = last(exchanges(own, "retry"));
            if (discarded == null || retry == null) {
                return notReached(id, own, seq);
            }
            return lostReply(id, discarded, retry, effects, seq);
        }

        /** A retry judged against the reply it stands for: the one the probe discarded (p2a, s2), or r1's redelivered one. */
        private Result lostReply(String id, JsonNode discarded, JsonNode retry, Observed effects, List<Integer> seq) {
            boolean single = !id.startsWith("p");
            Long delta = effects.delta("before", "after");
            boolean same = complete(retry) && same(discarded, retry);
            String otherwise = refused(retry) ? "was refused (" + shown(retry) + ")" : "answered otherwise (" + shown(retry) + ")";
            if (delta == null) {
                if (same) {
                    return unobservable(id, effects, seq);
                }
                return single && complete(retry) ? differentAnswer(id, "the retry after the lost reply " + otherwise, seq)
                        : new Result(id, Verdict.FAIL, Kind.LOST, "the retry after the lost reply " + otherwise
                                + "; the caller cannot learn the first result", seq);
            }
            if (delta >= 2) {
                return new Result(id, Verdict.FAIL, Kind.DUPLICATE, "the retry after the lost reply committed again: "
                        + delta + " effects for one call", seq);
            }
            if (delta == 0 && (!single || fresh)) {
                return new Result(id, Verdict.FAIL, Kind.ERROR, (single ? "the call" : "the final round") + " committed nothing", seq);
            }
            if (same) {
                return new Result(id, Verdict.PASS, null, "the retry got the same result, " + delta + " effect" + (delta == 1 ? "" : "s"), seq);
            }
            if (single && complete(retry)) {
                return differentAnswer(id, delta + " effect, but the retry " + otherwise, seq);
            }
            return new Result(id, Verdict.FAIL, Kind.LOST, delta + " effect, but the retry " + otherwise
                    + ": the caller cannot learn the result", seq);
        }

        /**
         * r1: the stream closed after its priming event, resumed by GET with Last-Event-ID. The reply twice fails; once,
         * the retry that follows is judged as s2's against it; never, the retry alone decides a duplicate, else weak.
         */
        private Result r1(List<JsonNode> own, Observed effects, List<Integer> seq) {
            JsonNode resumed = own.stream().filter(e -> e.path("kind").asText().equals("resumed")).findFirst().orElse(null);
            JsonNode retry = last(exchanges(own, "retry"));
            if (resumed == null || retry == null) {
                return new Result("r1", Verdict.FAIL, Kind.ERROR, "the run stopped before the stream was resumed", seq);
            }
            int delivered = resumed.path("deliveries").size();
            if (delivered >= 2) {
                return new Result("r1", Verdict.FAIL, Kind.DUPLICATE_DELIVERY, "GET with Last-Event-ID delivered the call's reply "
                        + delivered + " times", seq);
            }
            if (delivered == 1) {
                ObjectNode redelivered = JsonNodeFactory.instance.objectNode();
                redelivered.set("reply", resumed.path("deliveries").get(0));
                Result asRetry = lostReply("r1", redelivered, retry, effects, seq);
                return asRetry.verdict() == Verdict.PASS ? new Result("r1", Verdict.PASS, null, "the reply came once on the resumed"
                        + " stream; " + asRetry.reason(), seq) : asRetry;
            }
            Long delta = effects.delta("before", "after");
            if (delta != null && delta >= 2) {
                return new Result("r1", Verdict.FAIL, Kind.DUPLICATE, "nothing was redelivered, and the call sent again committed"
                        + " again: " + delta + " effects for one call", seq);
            }
            String answered = resumed.has("failure") ? resumed.path("failure").asText() : "HTTP " + resumed.path("status").asInt()
                    + (resumed.path("body").asText().isEmpty() ? " and no event" : ", " + resumed.path("body").asText());
            return new Result("r1", Verdict.WEAK, Kind.NOT_REDELIVERED, "GET with Last-Event-ID " + resumed.path("last_event_id").asText()
                    + " redelivered nothing (" + answered + "); the caller must send the call again", seq);
        }

        /** The reply the probe discarded (the lost one), or null. */
        private static JsonNode discarded(List<JsonNode> own) {
            return own.stream().filter(e -> e.path("discarded").asBoolean(false)).findFirst().orElse(null);
        }

        private static Result notReached(String id, List<JsonNode> own, List<Integer> seq) {
            return new Result(id, Verdict.FAIL, Kind.ERROR, "the call did not reach its final round: "
                    + shown(last(exchanges(own, "round-"))), seq);
        }

        private static Result differentAnswer(String id, String reason, List<Integer> seq) {
            return new Result(id, Verdict.WEAK, Kind.DIFFERENT_ANSWER, reason + ": the caller cannot tell what the first call did", seq);
        }

        /**
         * The final round given up at once, then sent again: committed at the cut and recovered by the retry (pass),
         * or cancelled by the cut and committed once by the retry (cancelled, the 2026-07-28 rule that a closed stream
         * cancels); two effects or an unrecoverable retry fail.
         */
        private Result p2b(List<JsonNode> own, Observed effects, List<Integer> seq) {
            JsonNode cut = last(exchanges(own, "cut"));
            JsonNode retry = last(exchanges(own, "retry"));
            if (cut == null || retry == null) {
                return notReached("p2b", own, seq);
            }
            Long atCut = effects.delta("before", "cut");
            Long byRetry = effects.delta("cut", "after");
            if (atCut == null || byRetry == null) {
                return complete(retry) ? unobservable("p2b", effects, seq) : new Result("p2b", Verdict.FAIL, Kind.LOST,
                        "the retry after the cut was refused (" + shown(retry) + ")", seq);
            }
            if (atCut + byRetry >= 2) {
                return new Result("p2b", Verdict.FAIL, Kind.DUPLICATE, "the cut request and its retry committed " + (atCut + byRetry)
                        + " effects", seq);
            }
            if (!complete(retry)) {
                return new Result("p2b", Verdict.FAIL, Kind.LOST, (atCut == 1 ? "the cut request committed, and the retry "
                        : "nothing committed, and the retry ") + "was refused (" + shown(retry) + ")", seq);
            }
            if (atCut == 1) {
                boolean seen = cut.path("reply").isObject();
                if (seen && !same(cut, retry)) {
                    return new Result("p2b", Verdict.FAIL, Kind.LOST, "the cut request committed; the retry answered otherwise ("
                            + shown(retry) + ")", seq);
                }
                return new Result("p2b", Verdict.PASS, null, "the cut request committed; the retry got the stored result", seq);
            }
            return byRetry == 1 ? new Result("p2b", Verdict.CANCELLED, null, "the cut cancelled the request; the retry committed once", seq)
                    : new Result("p2b", Verdict.FAIL, Kind.ERROR, "neither the cut request nor its retry committed", seq);
        }

        /** The final round after the state's lifetime: refused (or asked again), no effect. */
        private Result p10(List<JsonNode> own, Observed effects, List<Integer> seq) {
            JsonNode expired = last(exchanges(own, "expired"));
            if (expired == null) {
                return notReached("p10", own, seq);
            }
            Long delta = effects.delta("before", "after");
            if (delta != null && delta > 0) {
                return new Result("p10", Verdict.FAIL, Kind.ACCEPTED, "an expired state committed " + delta + " effect(s)", seq);
            }
            if (complete(expired)) {
                return new Result("p10", Verdict.FAIL, Kind.ACCEPTED, "an expired state was answered with a result ("
                        + shown(expired) + ")", seq);
            }
            return delta == null ? unobservable("p10", effects, seq) : new Result("p10", Verdict.PASS, null,
                    "the expired state was refused (" + shown(expired) + "), no effect", seq);
        }

        /**
         * p3 and s3: twenty identical sends at once commit one effect. p3 also wants every answered send to get the
         * same result (the state makes them one call); s3 only counts effects, since without an idempotency key the
         * server cannot know the sends are one call.
         */
        private Result p3(String id, List<JsonNode> own, Observed effects, List<Integer> seq) {
            boolean single = id.startsWith("s");
            List<JsonNode> race = exchanges(own, "race");
            if (race.isEmpty()) {
                return new Result(id, Verdict.FAIL, Kind.ERROR, "the call did not reach its final round", seq);
            }
            List<JsonNode> answered = race.stream().filter(this::complete).toList();
            boolean allSame = answered.stream().allMatch(a -> same(answered.get(0), a));
            Long delta = effects.delta("before", "after");
            String counts = answered.size() + " of " + race.size() + " sends answered with a result";
            if (delta != null && delta >= 2) {
                return new Result(id, Verdict.FAIL, Kind.DUPLICATE, race.size() + " sends at once committed " + delta
                        + " effects (" + counts + ")", seq);
            }
            if (answered.isEmpty() || (!single && !allSame)) {
                return new Result(id, Verdict.FAIL, Kind.LOST, answered.isEmpty() ? "no send got a result: every caller"
                        + " was refused (" + shown(race.get(0)) + ")" : counts + ", not all the same result", seq);
            }
            if (delta == null) {
                return unobservable(id, effects, seq);
            }
            if (delta == 1 || (single && !fresh && delta == 0)) {
                return new Result(id, Verdict.PASS, null, delta + " effect; " + counts + (allSame ? ", all the same" : ""), seq);
            }
            return new Result(id, Verdict.FAIL, Kind.ERROR, race.size() + " sends at once committed nothing", seq);
        }

        /**
         * s6 and s6b: a committed call's key sent again, with other arguments (s6, the IETF idempotency-key draft's 422)
         * or by another principal (s6b): refused with no effect; a commit, or any answer, fails (for s6b an answer would
         * show one principal's result to another).
         */
        private Result keyRefused(String id, List<JsonNode> own, Observed effects, List<Integer> seq, String role, String what) {
            JsonNode committed = last(exchanges(own, "round-"));
            JsonNode again = last(exchanges(own, role));
            if (again == null || !complete(committed)) {
                return new Result(id, Verdict.FAIL, Kind.ERROR, "the first call with the key did not complete: " + shown(committed), seq);
            }
            Long more = effects.delta("committed", "after");
            if (more != null && more > 0) {
                return new Result(id, Verdict.FAIL, Kind.ACCEPTED, what + " committed " + more + " more effect(s)", seq);
            }
            if (!refused(again)) {
                return new Result(id, Verdict.FAIL, Kind.ACCEPTED, what + " was answered " + (same(committed, again)
                        ? "with the first call's stored answer" : "as if accepted") + " (" + shown(again) + ")", seq);
            }
            return more == null ? unobservable(id, effects, seq)
                    : new Result(id, Verdict.PASS, null, what + " was refused (" + shown(again) + "), no effect", seq);
        }

        /**
         * s7: the key again while its first call still runs: refused (the draft's 409) or answered with the first
         * result, never a second effect; another answer with one effect is weak.
         */
        private Result s7(List<JsonNode> own, Observed effects, List<Integer> seq) {
            JsonNode first = last(exchanges(own, "slow"));
            JsonNode again = last(exchanges(own, "again"));
            if (first == null || again == null) {
                return new Result("s7", Verdict.FAIL, Kind.ERROR, "the two calls were not sent", seq);
            }
            Long delta = effects.delta("before", "after");
            if (delta != null && delta >= 2) {
                return new Result("s7", Verdict.FAIL, Kind.DUPLICATE, "the key sent again while its first call ran committed "
                        + delta + " effects", seq);
            }
            if (!complete(first)) {
                return new Result("s7", Verdict.FAIL, Kind.ERROR, "the slow call did not complete: " + shown(first), seq);
            }
            if (delta == null) {
                return unobservable("s7", effects, seq);
            }
            if (delta == 0) {
                return new Result("s7", Verdict.FAIL, Kind.ERROR, "the slow call committed nothing", seq);
            }
            if (refused(again)) {
                return new Result("s7", Verdict.PASS, null, "the key sent again while its first call ran was refused ("
                        + shown(again) + "), one effect", seq);
            }
            return same(first, again) ? new Result("s7", Verdict.PASS, null, "the key sent again while its first call ran got"
                    + " the first result, one effect", seq) : differentAnswer("s7", "one effect, but the key sent again while its"
                    + " first call ran answered otherwise (" + shown(again) + ")", seq);
        }

        /** s9: two processes on one store, calls alternating: every acknowledged call's effect must be kept. */
        private Result s9(List<JsonNode> own, Observed effects, List<Integer> seq) {
            List<JsonNode> calls = own.stream().filter(e -> e.path("kind").asText().equals("exchange")
                    && e.path("role").asText().startsWith("process-")).toList();
            if (calls.size() < 2) {
                return new Result("s9", Verdict.FAIL, Kind.ERROR, "the two processes were not both called", seq);
            }
            Long firstA = effects.delta("before", "first-a");
            Long firstB = effects.delta("first-a", "first-b");
            if (firstA == null || firstB == null) {
                return unobservable("s9", effects, seq);
            }
            if (firstA != 1 || firstB != 1) {
                return new Result("s9", Verdict.NOT_APPLICABLE, null, "the two processes do not share a store (their first calls"
                        + " raised the observer by " + firstA + " and " + firstB + ")", seq);
            }
            long acknowledged = calls.stream().filter(this::complete).count();
            Long delta = effects.delta("before", "after");
            String counts = acknowledged + " of " + calls.size() + " calls on two processes answered with a result, " + delta + " effects kept";
            if (delta < acknowledged) {
                return new Result("s9", Verdict.FAIL, Kind.LOST_EFFECT, counts + ": " + (acknowledged - delta)
                        + " acknowledged call(s) left no effect", seq);
            }
            return delta > calls.size() ? new Result("s9", Verdict.FAIL, Kind.DUPLICATE, counts, seq)
                    : new Result("s9", Verdict.PASS, null, counts, seq);
        }

        /** s8: twenty calls at once, each with fresh values: every call answered with a result must have its effect. */
        private Result s8(List<JsonNode> own, Observed effects, List<Integer> seq) {
            List<JsonNode> race = exchanges(own, "race");
            if (race.isEmpty()) {
                return new Result("s8", Verdict.FAIL, Kind.ERROR, "no call was sent", seq);
            }
            long acknowledged = race.stream().filter(this::complete).count();
            Long delta = effects.delta("before", "after");
            if (delta == null) {
                return unobservable("s8", effects, seq);
            }
            String counts = acknowledged + " of " + race.size() + " calls at once answered with a result, " + delta + " effects kept";
            if (delta < acknowledged) {
                return new Result("s8", Verdict.FAIL, Kind.LOST_EFFECT, counts + ": " + (acknowledged - delta)
                        + " acknowledged call(s) left no effect", seq);
            }
            if (delta > race.size()) {
                return new Result("s8", Verdict.FAIL, Kind.DUPLICATE, counts, seq);
            }
            return new Result("s8", Verdict.PASS, null, counts, seq);
        }

        /** Each tampered state refused (or asked again) with no effect; a commit means a client can forge the state. */
        private Result p5(List<JsonNode> own, Observed effects, List<Integer> seq) {
            List<JsonNode> tampered = exchanges(own, "tampered ");
            if (tampered.isEmpty()) {
                return notReached("p5", own, seq);
            }
            String previous = "before";
            boolean observed = true;
            for (JsonNode exchange : tampered) {
                String variant = exchange.path("role").asText().substring("tampered ".length());
                Long delta = effects.delta(previous, "after-" + variant);
                previous = "after-" + variant;
                if (delta != null && delta > 0) {
                    return new Result("p5", Verdict.FAIL, Kind.FORGEABLE_STATE, "the state " + variant + " committed " + delta
                            + " effect(s) (" + shown(exchange) + ")", seq);
                }
                if (complete(exchange)) {
                    return new Result("p5", Verdict.FAIL, Kind.ACCEPTED, "the state " + variant + " was answered as if"
                            + " accepted (" + shown(exchange) + ")", seq);
                }
                observed &= delta != null;
            }
            String variants = String.join(", ", tampered.stream().map(e -> e.path("role").asText().substring("tampered ".length())).toList());
            return observed ? new Result("p5", Verdict.PASS, null, "every tampered state refused, no effect (" + variants + ")", seq)
                    : unobservable("p5", effects, seq);
        }

        /** A call's final round sent by another principal: refused (or asked again), no effect. */
        private Result p6(List<JsonNode> own, Observed effects, List<Integer> seq) {
            JsonNode stranger = last(exchanges(own, "other principal"));
            if (stranger == null) {
                return notReached("p6", own, seq);
            }
            Long delta = effects.delta("before", "after");
            if (delta != null && delta > 0) {
                return new Result("p6", Verdict.FAIL, Kind.ACCEPTED, "another principal's use of the state committed " + delta
                        + " effect(s)", seq);
            }
            if (complete(stranger)) {
                return new Result("p6", Verdict.FAIL, Kind.ACCEPTED, "another principal's use of the state was answered with a"
                        + " result (" + shown(stranger) + ")", seq);
            }
            if (delta == null) {
                return unobservable("p6", effects, seq);
            }
            return new Result("p6", Verdict.PASS, null, "another principal's use of the state was refused (" + shown(stranger)
                    + "), no effect", seq);
        }

        /**
         * p7 and s4: the final round committed, its reply lost, the server restarted: the same round must recover the
         * result with no new effect (on a single-round tool a different answer with no effect is weak).
         */
        private Result p7(String id, List<JsonNode> own, Observed effects, List<Integer> seq) {
            boolean single = id.startsWith("s");
            JsonNode discarded = discarded(own);
            JsonNode retry = last(exchanges(own, "retry"));
            if (discarded == null || retry == null) {
                return notReached(id, own, seq);
            }
            Long first = effects.delta("before", "committed");
            Long second = effects.delta("committed", "after");
            boolean same = complete(retry) && same(discarded, retry);
            if (second != null && second > 0) {
                return new Result(id, Verdict.FAIL, Kind.DUPLICATE, "after the restart the same " + (single ? "call" : "round")
                        + " committed again (" + second + " more effect(s))", seq);
            }
            if (!same) {
                String otherwise = refused(retry) ? "was refused (" + shown(retry) + ")" : "answered otherwise (" + shown(retry) + ")";
                return single && complete(retry) ? differentAnswer(id, "after the restart the same call " + otherwise, seq)
                        : new Result(id, Verdict.FAIL, Kind.LOST, "after the restart the same " + (single ? "call " : "round ")
                                + otherwise + ": the caller cannot learn the result", seq);
            }
            if (first == null || second == null) {
                return unobservable(id, effects, seq);
            }
            return first == 1 || (single && !fresh && first == 0) ? new Result(id, Verdict.PASS, null, "after the restart the same "
                    + (single ? "call" : "round") + " got the stored result, no new effect", seq)
                    : new Result(id, Verdict.FAIL, Kind.ERROR, "the " + (single ? "call" : "final round") + " committed " + first
                            + " effects before the restart", seq);
        }

        private Result p8(String id, List<JsonNode> own, Observed effects, List<Integer> seq) {
            JsonNode last = last(exchanges(own, "round-"));
            Long delta = effects.delta("before", "after");
            if (!complete(last)) {
                return new Result(id, Verdict.FAIL, Kind.ERROR, "the new call did not complete: " + shown(last), seq);
            }
            if (delta == null) {
                return unobservable(id, effects, seq);
            }
            if (delta == 1) {
                return new Result(id, Verdict.PASS, null, "a new call committed a new effect", seq);
            }
            return new Result(id, Verdict.FAIL, delta > 1 ? Kind.DUPLICATE : Kind.ERROR, "a new call committed " + delta
                    + " effects" + (delta == 0 ? " (the server took it for the earlier call, or the observer misses it)" : ""), seq);
        }

        /** p4 and p9: a committed call's final round again, changed; p9 may also answer the stored result. */
        private Result replayed(String id, List<JsonNode> own, Observed effects, List<Integer> seq, boolean storedResultIsFine) {
            JsonNode committed = last(exchanges(own, "round-"));
            JsonNode replay = last(exchanges(own, "replay"));
            if (replay == null || !complete(committed)) {
                return new Result(id, Verdict.FAIL, Kind.ERROR, "the call to replay did not complete: " + shown(committed), seq);
            }
            Long first = effects.delta("before", "committed");
            Long second = effects.delta("committed", "after");
            String what = id.equals("p4") ? "the state with changed arguments" : "the state with changed input responses";
            if (second != null && second > 0) {
                return new Result(id, Verdict.FAIL, Kind.ACCEPTED, what + " committed " + second + " more effect(s)", seq);
            }
            if (refused(replay)) {
                return second == null ? unobservable(id, effects, seq)
                        : new Result(id, Verdict.PASS, null, what + " was refused (" + shown(replay) + "), no effect", seq);
            }
            if (storedResultIsFine && complete(replay) && same(committed, replay)) {
                return second == null ? unobservable(id, effects, seq)
                        : new Result(id, Verdict.PASS, null, what + " got the first call's stored result, no effect", seq);
            }
            if (first != null && first != 1) {
                return new Result(id, Verdict.FAIL, Kind.ERROR, "the call to replay committed " + first + " effects", seq);
            }
            return new Result(id, Verdict.FAIL, Kind.ACCEPTED, what + " was answered as if accepted (" + shown(replay) + ")", seq);
        }

        private Result unobservable(String id, Observed effects, List<Integer> seq) {
            return new Result(id, Verdict.UNOBSERVABLE, null, effects.why(), seq);
        }

        private static List<JsonNode> exchanges(List<JsonNode> own, String rolePrefix) {
            return own.stream().filter(e -> e.path("kind").asText().equals("exchange")
                    && e.path("role").asText().startsWith(rolePrefix)).toList();
        }

        private static JsonNode last(List<JsonNode> list) {
            return list.isEmpty() ? null : list.get(list.size() - 1);
        }

        private boolean complete(JsonNode exchange) {
            if (exchange == null || !exchange.path("reply").isObject()) {
                return false;
            }
            JsonNode result = exchange.path("reply").path("result");
            return result.isObject() && !result.path("isError").asBoolean(false)
                    && !"input_required".equals(result.path("resultType").asText());
        }

        private boolean refused(JsonNode exchange) {
            return exchange != null && exchange.path("reply").isObject() && (exchange.path("reply").has("error")
                    || exchange.path("reply").path("result").path("isError").asBoolean(false));
        }

        /** Equal results after removing the ignored keys at any depth. */
        private boolean same(JsonNode a, JsonNode b) {
            return SameResult.same(a.path("reply").path("result"), b.path("reply").path("result"), ignored);
        }

        private static String shown(JsonNode exchange) {
            if (exchange == null) {
                return "no exchange";
            }
            JsonNode reply = exchange.path("reply");
            if (!reply.isObject()) {
                return exchange.path("failure").asText("no reply");
            }
            if (reply.has("error")) {
                return "error " + reply.path("error").path("code").asInt() + " " + reply.path("error").path("message").asText();
            }
            JsonNode result = reply.path("result");
            if (result.path("isError").asBoolean(false)) {
                return "isError " + abbreviated(result.path("content").path(0).path("text").asText(result.toString()));
            }
            return abbreviated(result.path("resultType").asText("result") + " " + result.path("structuredContent"));
        }

        private static String abbreviated(String text) {
            return text.length() > 160 ? text.substring(0, 160) + "..." : text;
        }
    }

    /** A check's observer readings by phase. */
    private static final class Observed {
        private final Map<String, JsonNode> byPhase = new LinkedHashMap<>();

        Observed(List<JsonNode> own) {
            own.stream().filter(e -> e.path("kind").asText().equals("observe")).forEach(e -> byPhase.put(e.path("phase").asText(), e));
        }

        Long delta(String from, String to) {
            JsonNode a = byPhase.get(from);
            JsonNode b = byPhase.get(to);
            if (a == null || b == null || !a.path("value").isIntegralNumber() || !b.path("value").isIntegralNumber()) {
                return null;
            }
            return b.path("value").asLong() - a.path("value").asLong();
        }

        String why() {
            for (JsonNode reading : byPhase.values()) {
                if (reading.has("error")) {
                    return "the observer failed: " + reading.path("error").asText();
                }
            }
            return "no observer: the effects were not counted (give --effects-cmd or --effects-sqlite)";
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
