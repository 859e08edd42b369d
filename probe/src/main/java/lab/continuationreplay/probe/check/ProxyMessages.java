package lab.continuationreplay.probe.check;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import lab.continuationreplay.history.FormatException;
import lab.continuationreplay.history.HttpHead;
import lab.continuationreplay.history.JsonRpcFrames;
import lab.continuationreplay.history.Transcript;
import lab.continuationreplay.probe.check.ProxyCheck.Message;

/**
 * A proxy session's messages in the order its transcript holds them, each matched with the proxy's event for it: a
 * stdio session line by line, an HTTP session exchange by exchange (every frame of a body, and a client's GET that
 * resumes a stream). What does not match is a problem of the history.
 */
final class ProxyMessages {
    private ProxyMessages() {}

    static List<String> stdio(String session, List<Transcript.Line> lines, List<JsonNode> events, List<Message> messages) {
        List<String> problems = new ArrayList<>();
        List<JsonNode> lineEvents = events.stream().filter(e -> e.path("kind").asText().equals("line")).toList();
        if (lineEvents.size() != lines.size()) {
            problems.add(session + ": the transcript has " + lines.size() + " lines and the events name " + lineEvents.size());
            return problems;
        }
        for (int i = 0; i < lines.size(); i++) {
            JsonNode event = lineEvents.get(i);
            Transcript.Line line = lines.get(i);
            boolean fromClient = line.direction() == Transcript.Direction.SENT;
            if (event.path("line").asInt(-1) != i || !event.path("direction").asText().equals(fromClient ? "client" : "server")) {
                problems.add(session + ": event for line " + i + " does not match the transcript's line");
                continue;
            }
            messages.add(new Message(session, session, event.path("at_ms").asLong(), fromClient, JsonRpcFrames.object(line.text()),
                    event.path("action").asText(), event.has("completing") ? event.path("completing").asInt() : null));
        }
        return problems;
    }

    static List<String> http(String session, List<Transcript.Line> lines, List<JsonNode> events, List<Message> messages) {
        List<String> problems = new ArrayList<>();
        Map<Integer, JsonNode> requests = new HashMap<>();
        Map<Integer, JsonNode> responses = new HashMap<>();
        for (JsonNode event : events) {
            switch (event.path("kind").asText()) {
                case "request" -> requests.put(event.path("exchange").asInt(), event);
                case "response" -> responses.put(event.path("exchange").asInt(), event);
                default -> { }
            }
        }
        Set<Integer> answered = new LinkedHashSet<>();
        for (int i = 0; i < lines.size(); i++) {
            Transcript.Line line = lines.get(i);
            if (line.kind() != Transcript.Kind.HEAD && line.kind() != Transcript.Kind.NO_RESPONSE) {
                continue;
            }
            int exchange;
            HttpHead parsed;
            try {
                parsed = HttpHead.parse(line.text(), session + " transcript line " + (i + 1));
                exchange = parsed.exchange();
            } catch (FormatException e) {
                problems.add(e.getMessage());
                continue;
            }
            if (line.kind() == Transcript.Kind.NO_RESPONSE) {
                continue;
            }
            String body = i + 1 < lines.size() && lines.get(i + 1).kind() == Transcript.Kind.BODY ? lines.get(i + 1).text() : null;
            boolean fromClient = line.direction() == Transcript.Direction.SENT;
            JsonNode event = (fromClient ? requests : responses).get(exchange);
            if (event == null) {
                problems.add(session + ": exchange " + exchange + "'s " + (fromClient ? "request" : "response") + " has no event");
                continue;
            }
            if (!fromClient) {
                answered.add(exchange);
            } else if (parsed.requestLine() != null && parsed.requestLine().startsWith("GET ") && parsed.header("Last-Event-ID") != null) {
                // a client of 2025-11-25 resuming a stream: no frame, only the event id it resumes after
                messages.add(new Message(session, "x" + exchange, event.path("at_ms").asLong(), true, null, "forwarded", null,
                        parsed.header("Last-Event-ID")));
            }
            for (JsonNode frame : JsonRpcFrames.ofBody(body)) {
                // a stream's loss and its number belong to its reply: a request of the server's on the same stream
                // (an elicitation before 2026-07-28) came before the reply and reached the client
                boolean reply = !fromClient && JsonRpcFrames.isResponse(frame);
                messages.add(new Message(session, "x" + exchange, event.path("at_ms").asLong(), fromClient, frame,
                        reply ? event.path("action").asText() : "forwarded",
                        reply && event.has("completing") ? event.path("completing").asInt() : null));
            }
        }
        for (Integer exchange : responses.keySet()) {
            if (!answered.contains(exchange)) {
                problems.add(session + ": an event names exchange " + exchange + "'s response, which the transcript does not hold");
            }
        }
        return problems;
    }
}
