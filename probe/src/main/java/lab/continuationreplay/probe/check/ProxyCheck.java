package lab.continuationreplay.probe.check;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import lab.continuationreplay.history.ArtifactHashes;
import lab.continuationreplay.history.Format;
import lab.continuationreplay.history.FormatException;
import lab.continuationreplay.history.JsonRpcFrames;
import lab.continuationreplay.history.Layout;
import lab.continuationreplay.history.RunLog;
import lab.continuationreplay.history.Transcript;
import lab.continuationreplay.vectors.ExactJson;

/**
 * Derives what {@code lab proxy} saw from its history alone: which reply was lost, and what the client did after it.
 * The proxy's events only give times and what it did with each line or exchange; the frames come from the transcripts,
 * and the completing replies are counted again here, so a loss the plan did not ask for, or a count the events got
 * wrong, is a problem, not a fact.
 *
 * <p>What the client did, from the first {@code tools/call} of the same tool after the loss: {@code
 * retried-same-state} (the lost round again, the same {@code requestState} and answers), {@code
 * retried-changed-answers} (the same state, other answers), {@code retried-same-call} (a call without state sent again
 * with the same arguments: all a single-round tool's caller can do), {@code new-call} (no state, or another: the call
 * started over), {@code resumed-stream} (a client of 2025-11-25 resumed the lost stream by GET with {@code Last-Event-ID}
 * and the server redelivered the reply on it), or {@code gave-up} (no such call before the run ended). Then what that call came to, following its rounds:
 * {@code recovered} (the lost result, ignoring {@code replayed} and {@code _meta}), {@code different-result},
 * {@code refused} (an error or an {@code isError} result), or {@code none} (no reply reached the client).
 */
public final class ProxyCheck {
    public static final String RESULT = "proxy.json";
    private static final String PLAN = "plan.json";
    private static final String RUN = "run";
    private static final Pattern SESSION = Pattern.compile("s([1-9][0-9]{0,5})\\.events\\.jsonl");
    private static final Set<String> IGNORED = Set.of("replayed", "_meta");
    /** How many rounds of a call after the loss are followed before its outcome is called unknown. */
    private static final int ROUNDS = 16;

    private ProxyCheck() {}

    /** The derived document (null when the history cannot be read) and what is wrong with the history. */
    public record Judgement(ObjectNode document, List<String> problems) {
        public boolean ok() {
            return problems.isEmpty();
        }

        /** One line for people: the loss and what the client did. */
        public String summary() {
            return document == null ? "no summary: " + String.join("; ", problems) : document.path("summary").asText();
        }
    }

    public static boolean isProxyRun(Path folder) {
        return Files.isDirectory(folder.resolve(RUN)) && ProbeCheck.planIs(folder, Format.PROXY_PLAN);
    }

    /** Derives and writes {@code proxy.json}; a session's seal removed the previous one. */
    public static Judgement deriveAndWrite(Path out) throws IOException {
        Judgement judgement = derive(out);
        if (judgement.document() != null) {
            Path file = out.resolve(RESULT);
            if (Files.exists(file)) {
                throw new IllegalArgumentException(file + " already exists; a derived file is never overwritten");
            }
            Files.writeString(file, text(judgement.document()), StandardCharsets.UTF_8);
        }
        return judgement;
    }

    /** Derived again, and whether the folder's {@code proxy.json} says the same. */
    public static Judgement verify(Path out) throws IOException {
        Judgement derived = derive(out);
        List<String> problems = new ArrayList<>(derived.problems());
        Path file = out.resolve(RESULT);
        if (!Files.exists(file)) {
            problems.add("missing " + RESULT);
        } else if (derived.document() != null && !Files.readString(file, StandardCharsets.UTF_8).equals(text(derived.document()))) {
            problems.add(RESULT + " differs from what the history shows");
        }
        return new Judgement(derived.document(), problems);
    }

    /**
     * One JSON-RPC frame as the history shows it: who sent it, when, in which session and scope, and what the proxy did.
     *
     * @param resumeFrom on a client's GET that resumes a stream, its {@code Last-Event-ID} (and no frame); else null
     */
    record Message(String session, String scope, long atMs, boolean fromClient, JsonNode frame, String action, Integer claimed,
            String resumeFrom) {
        Message(String session, String scope, long atMs, boolean fromClient, JsonNode frame, String action, Integer claimed) {
            this(session, scope, atMs, fromClient, frame, action, claimed, null);
        }
    }

    /** When the client closed a held HTTP exchange, by session and scope: under the 2026-07-28 rules, a cancellation. */
    private static final String CLIENT_CLOSED = "client_closed";

    public static Judgement derive(Path out) throws IOException {
        List<String> problems = new ArrayList<>();
        Sessions read;
        try {
            read = sessions(out, problems);
        } catch (FormatException e) {
            return new Judgement(null, List.of(e.getMessage()));
        } catch (java.nio.file.NoSuchFileException e) {
            return new Judgement(null, List.of("missing " + e.getFile()));
        } catch (Unfit e) {
            return new Judgement(null, List.of(e.getMessage()));
        }
        boolean http = "http".equals(read.plan().path("upstream").path("transport").asText());
        List<Message> messages = messages(out, read, http, problems);
        ObjectNode document = Format.PROXY.document();
        document.put("transport", http ? "http" : "stdio");
        document.put("lose", read.plan().path("lose").asText());
        int nth = read.plan().path("nth").asInt();
        document.put("nth", nth);
        document.put("sessions", read.names().size());
        ArrayNode endings = document.putArray("ended_by");
        read.names().forEach(s -> read.events().get(s).stream().filter(e -> e.path("kind").asText().equals("end"))
                .forEach(e -> endings.add(s + " " + e.path("ended_by").asText())));
        Map<String, Long> closedAt = new HashMap<>();
        read.names().forEach(s -> read.events().get(s).stream().filter(e -> e.path("kind").asText().equals(CLIENT_CLOSED))
                .forEach(e -> closedAt.put(s + " x" + e.path("exchange").asInt(), e.path("at_ms").asLong())));
        problems.addAll(judge(messages, nth, document, closedAt));
        return new Judgement(document, problems);
    }

    /** A run's plan, its sessions in order, and each session's events. */
    private record Sessions(JsonNode plan, List<String> names, Map<String, List<JsonNode>> events) {}

    /** A history that cannot be judged at all: one problem, and no document. */
    private static final class Unfit extends Exception {
        private static final long serialVersionUID = 1L;

        Unfit(String problem) {
            super(problem, null, false, false);
        }
    }

    /** The plan and every session's events, their hashes checked against the last seal; events out of order are problems. */
    private static Sessions sessions(Path out, List<String> problems) throws IOException, FormatException, Unfit {
        JsonNode plan = Format.PROXY_PLAN.read(Files.readString(out.resolve(PLAN), StandardCharsets.UTF_8), PLAN);
        RunLog.Entry entry = RunLog.read(out.resolve(Layout.HISTORY), Layout.HISTORY).get(RUN);
        if (entry == null) {
            throw new Unfit(Layout.HISTORY + " has no line for " + RUN + "/ (no session ended)");
        }
        if (!ArtifactHashes.of(out.resolve(RUN), out).equals(entry.artifactHashes())) {
            throw new Unfit(RUN + "/ differs from the hashes the last session recorded in " + Layout.HISTORY);
        }
        List<String> sessions = new ArrayList<>();
        try (Stream<Path> files = Files.list(out.resolve(RUN))) {
            files.map(f -> SESSION.matcher(f.getFileName().toString())).filter(Matcher::matches)
                    .sorted(Comparator.comparingInt(m -> Integer.parseInt(m.group(1))))
                    .forEach(m -> sessions.add("s" + m.group(1)));
        }
        Map<String, List<JsonNode>> events = new HashMap<>();
        for (String session : sessions) {
            List<JsonNode> list = new ArrayList<>();
            List<String> lines = Files.readAllLines(out.resolve(RUN).resolve(session + ".events.jsonl"), StandardCharsets.UTF_8);
            for (int i = 0; i < lines.size(); i++) {
                JsonNode event = Format.PROXY_EVENT.read(lines.get(i), RUN + "/" + session + ".events.jsonl: line " + (i + 1));
                if (event.path("seq").asInt() != i + 1 || !session.equals(event.path("session").asText())) {
                    problems.add(session + ": event " + (i + 1) + " is out of sequence or names another session");
                }
                list.add(event);
            }
            events.put(session, list);
        }
        return new Sessions(plan, sessions, events);
    }

    /** Every session's messages matched with its events; over HTTP in the order they happened, across connections. */
    private static List<Message> messages(Path out, Sessions read, boolean http, List<String> problems) throws IOException {
        List<Message> messages = new ArrayList<>();
        for (String session : read.names()) {
            Path transcript = out.resolve(RUN).resolve(session + ".transcript.log");
            List<Transcript.Line> lines;
            try {
                lines = Files.exists(transcript) ? Transcript.read(transcript) : List.of();
            } catch (FormatException e) {
                problems.add(e.getMessage());
                continue;
            }
            if (http) {
                problems.addAll(ProxyMessages.http(session, lines, read.events().get(session), messages));
            } else {
                problems.addAll(ProxyMessages.stdio(session, lines, read.events().get(session), messages));
            }
        }
        if (http) {
            messages.sort(Comparator.comparingLong(Message::atMs));
        }
        return messages;
    }

    /** Counts the completing replies again, finds the loss, and follows the client after it. */
    private static List<String> judge(List<Message> messages, int nth, ObjectNode document, Map<String, Long> closedAt) {
        List<String> problems = new ArrayList<>();
        Counted counted = count(messages, nth, problems);
        document.put("completed_calls", counted.completed());
        timeline(messages, document.putArray("timeline"));
        Message loss = counted.loss();
        if (loss == null) {
            document.putNull("loss");
            ObjectNode client = document.putObject("client");
            client.put("action", "no-loss");
            document.put("summary", "no reply was lost: " + counted.completed() + " tool call(s) completed, and the plan loses"
                    + " the reply completing call " + nth);
            return problems;
        }
        Message request = counted.requestOf().get(loss);
        JsonNode params = request.frame().path("params");
        ObjectNode lossNode = document.putObject("loss");
        lossNode.put("session", loss.session());
        lossNode.put("tool", params.path("name").asText());
        lossNode.set("request_id", request.frame().get("id"));
        lossNode.put("had_state", params.has("requestState"));
        lossNode.put("action", loss.action());
        ObjectNode client = after(messages, loss, request);
        Long closed = closedAt.get(loss.session() + " " + loss.scope());
        if (http(loss)) {
            if (closed == null) {
                client.putNull("closed_after_ms");
            } else {
                client.put("closed_after_ms", closed - loss.atMs());
            }
        }
        document.set("client", client);
        document.put("summary", ProxyWords.summary(document));
        return problems;
    }

    /** The completing replies counted again, each reply's request, and the loss the plan chose (null: none). */
    private record Counted(int completed, Map<Message, Message> requestOf, Message loss) {}

    /** Numbers the completing replies as the transcript shows them; where the proxy's own numbers differ, a problem. */
    private static Counted count(List<Message> messages, int nth, List<String> problems) {
        Map<String, Message> awaited = new HashMap<>();
        Map<Message, Message> requestOf = new HashMap<>();
        int completed = 0;
        Message loss = null;
        for (Message message : messages) {
            JsonNode frame = message.frame();
            if (message.fromClient()) {
                if (JsonRpcFrames.isToolCall(frame)) {
                    awaited.put(message.scope() + " " + frame.get("id"), message);
                }
                continue;
            }
            boolean lost = isLoss(message.action());
            Integer completing = null;
            if (JsonRpcFrames.isResponse(frame)) {
                Message request = awaited.remove(message.scope() + " " + frame.get("id"));
                if (request != null) {
                    requestOf.put(message, request);
                    if (JsonRpcFrames.completes(frame)) {
                        completing = ++completed;
                    }
                }
            }
            if (!java.util.Objects.equals(completing, message.claimed())) {
                problems.add(message.session() + ": the proxy numbered a reply " + message.claimed() + " where the transcript shows "
                        + (completing == null ? "no completing reply" : "completing reply " + completing));
            }
            if (lost && (completing == null || completing != nth)) {
                problems.add(message.session() + ": the proxy kept a reply from the client that is not the reply completing call " + nth);
            }
            if (completing != null && completing == nth && !lost) {
                problems.add(message.session() + ": the reply completing call " + nth + " reached the client, though the plan lost it");
            }
            if (lost && completing != null && completing == nth) {
                loss = message;
            }
        }
        return new Counted(completed, requestOf, loss);
    }

    private static void timeline(List<Message> messages, ArrayNode timeline) {
        long first = messages.isEmpty() ? 0 : messages.get(0).atMs();
        for (Message message : messages) {
            ObjectNode row = timeline.addObject();
            row.put("t_ms", message.atMs() - first);
            row.put("session", message.session());
            row.put("from", message.fromClient() ? "client" : "server");
            row.put("frame", message.resumeFrom() != null ? "GET resuming after event " + message.resumeFrom() : ProxyWords.describe(message.frame()));
            row.put("action", message.action());
        }
    }

    /** What the client did after the loss, from the frames it sent later and the replies it got. */
    private static ObjectNode after(List<Message> messages, Message loss, Message lostRequest) {
        ObjectNode client = ExactJson.mapper().createObjectNode();
        Followed followed = follow(messages, loss, lostRequest);
        if (followed.cancelledAfterMs() == null) {
            client.putNull("cancelled_after_ms");
        } else {
            client.put("cancelled_after_ms", followed.cancelledAfterMs());
        }
        followed.others().forEach(client.putArray("other_requests")::add);
        Message resumed = followed.resumed();
        Message redelivered = resumed == null ? null : replyOn(messages, resumed, lostRequest.frame().get("id"));
        if (resumed != null) {
            client.put("resumed_from", resumed.resumeFrom());
        }
        if (redelivered != null) {
            client.put("action", "resumed-stream");
            client.put("after_ms", resumed.atMs() - loss.atMs());
            boolean same = SameResult.same(redelivered.frame().path("result"), loss.frame().path("result"), IGNORED);
            client.put("outcome", same ? "recovered" : "different-result");
            client.put("outcome_detail", ProxyWords.text(redelivered.frame().path("result")));
            return client;
        }
        Message next = followed.next();
        if (next == null) {
            client.put("action", "gave-up");
            client.putNull("after_ms");
            client.put("outcome", "none");
            return client;
        }
        JsonNode lostParams = lostRequest.frame().path("params");
        JsonNode params = next.frame().path("params");
        boolean stateless = !lostParams.has("requestState") && !params.has("requestState");
        String action = stateless ? (params.path("arguments").equals(lostParams.path("arguments")) ? "retried-same-call" : "new-call")
                : !params.has("requestState") || !params.path("requestState").equals(lostParams.path("requestState"))
                ? "new-call" : params.path("inputResponses").equals(lostParams.path("inputResponses")) ? "retried-same-state"
                : "retried-changed-answers";
        client.put("action", action);
        client.put("after_ms", next.atMs() - loss.atMs());
        client.put("same_arguments", params.path("arguments").equals(lostParams.path("arguments")));
        outcome(messages, loss, next, client);
        return client;
    }

    /**
     * What the client sent after the loss: the cancellation of the lost request, its first call of the same tool
     * (null: none), a GET resuming a stream before that call (null: none), and the other requests in between.
     */
    private record Followed(Long cancelledAfterMs, Message next, Message resumed, Set<String> others) {}

    private static Followed follow(List<Message> messages, Message loss, Message lostRequest) {
        String tool = lostRequest.frame().path("params").path("name").asText();
        Long cancelled = null;
        Message next = null;
        Message resumed = null;
        Set<String> others = new LinkedHashSet<>();
        for (Message message : messages.subList(messages.indexOf(loss) + 1, messages.size())) {
            if (!message.fromClient()) {
                continue;
            }
            JsonNode frame = message.frame();
            if (frame == null) {
                if (message.resumeFrom() != null && next == null && resumed == null && message.session().equals(lostRequest.session())) {
                    resumed = message;
                }
                continue;
            }
            String method = frame.path("method").asText();
            // over HTTP a cancellation comes in an exchange of its own: ids are the client's, within its session
            if (method.equals("notifications/cancelled") && cancelled == null && message.session().equals(lostRequest.session())
                    && frame.path("params").path("requestId").equals(lostRequest.frame().get("id"))) {
                cancelled = message.atMs() - loss.atMs();
            } else if (JsonRpcFrames.isToolCall(frame) && frame.path("params").path("name").asText().equals(tool) && next == null) {
                next = message;
            } else if (next == null && !method.isEmpty() && !method.startsWith("notifications/")) {
                others.add(method.equals("tools/call") ? "tools/call " + frame.path("params").path("name").asText() : method);
            }
        }
        return new Followed(cancelled, next, resumed, others);
    }

    /** What the client's call after the loss came to, following its rounds: each continuation carries the state asked. */
    private static void outcome(List<Message> messages, Message loss, Message next, ObjectNode client) {
        Message round = next;
        for (int i = 0; i < ROUNDS; i++) {
            Message reply = replyTo(messages, round);
            if (reply == null) {
                client.put("outcome", "none");
                client.put("outcome_detail", "no reply to the client's request " + round.frame().get("id"));
                return;
            }
            JsonNode frame = reply.frame();
            if (frame.has("error") || frame.path("result").path("isError").asBoolean(false)) {
                client.put("outcome", "refused");
                client.put("outcome_detail", frame.has("error") ? "error " + frame.path("error").path("code").asText() + " "
                        + frame.path("error").path("message").asText() : "isError result: " + ProxyWords.text(frame.path("result")));
                return;
            }
            if (!"input_required".equals(frame.path("result").path("resultType").asText())) {
                boolean same = SameResult.same(frame.path("result"), loss.frame().path("result"), IGNORED);
                client.put("outcome", same ? "recovered" : "different-result");
                client.put("outcome_detail", ProxyWords.text(frame.path("result")));
                return;
            }
            Message continuation = continuationOf(messages, reply, frame.path("result").path("requestState"));
            if (continuation == null) {
                client.put("outcome", "none");
                client.put("outcome_detail", "the client did not answer the new call's input request");
                return;
            }
            round = continuation;
        }
        client.put("outcome", "none");
        client.put("outcome_detail", "more than " + ROUNDS + " rounds");
    }

    /** The reply to request {@code id} that came on a resumed stream (the GET's own exchange), or null. */
    private static Message replyOn(List<Message> messages, Message resumed, JsonNode id) {
        for (Message message : messages.subList(messages.indexOf(resumed) + 1, messages.size())) {
            if (!message.fromClient() && message.scope().equals(resumed.scope()) && JsonRpcFrames.isResponse(message.frame())
                    && message.frame().get("id").equals(id)) {
                return isLoss(message.action()) ? null : message;
            }
        }
        return null;
    }

    private static Message replyTo(List<Message> messages, Message request) {
        for (Message message : messages.subList(messages.indexOf(request) + 1, messages.size())) {
            if (!message.fromClient() && message.scope().equals(request.scope()) && JsonRpcFrames.isResponse(message.frame())
                    && message.frame().get("id").equals(request.frame().get("id"))) {
                return isLoss(message.action()) ? null : message;
            }
        }
        return null;
    }

    private static Message continuationOf(List<Message> messages, Message reply, JsonNode state) {
        for (Message message : messages.subList(messages.indexOf(reply) + 1, messages.size())) {
            if (message.fromClient() && JsonRpcFrames.isToolCall(message.frame()) && !state.isMissingNode()
                    && message.frame().path("params").path("requestState").equals(state)) {
                return message;
            }
        }
        return null;
    }

    private static boolean http(Message message) {
        return message.scope().startsWith("x");
    }

    private static boolean isLoss(String action) {
        return List.of("lost", "lost-and-closed", "held", "dropped").contains(action);
    }

    private static String text(ObjectNode document) throws IOException {
        return ExactJson.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(document) + "\n";
    }
}
