package lab.continuationreplay.checker;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import lab.continuationreplay.history.EventStream;
import lab.continuationreplay.history.FormatException;
import lab.continuationreplay.history.HttpHead;
import lab.continuationreplay.history.Layout;
import lab.continuationreplay.history.Reply;
import lab.continuationreplay.history.Transcript;
import lab.continuationreplay.vectors.ExactJson;

/**
 * What the wire says, recomputed from the transcripts alone (seed spec §9.14): every tools/call sent, every reply
 * received, paired by process and id, byte-exact lines included. Over HTTP a reply is the JSON body (or an event
 * stream's data) of its exchange's response, and the call keeps the response status; a 2xx body that holds no frame
 * is a non-frame too. A line received that is not a JSON-RPC 2.0 object
 * in UTF-8 (a JVM warning on stdout, say) is a server defect, kept in {@code nonFrames}.
 */
public record WireFacts(List<Call> calls, List<String> protocolVersions, int replies, List<NonFrame> nonFrames) {
    /** How much of a non-frame line the facts keep. */
    static final int QUOTED = 120;

    /** A line a process wrote to stdout that is not a frame: the process and the start of the line. */
    public record NonFrame(String process, String start) {}

    /**
     * One tools/call and what came back for it (null when no reply arrived); over HTTP also the response status
     * (null on stdio, and when no response arrived).
     */
    public record Call(String source, long id, String tool, boolean continuation, boolean statePresent,
            JsonNode arguments, JsonNode reply, Integer httpStatus) {

        public boolean answered() {
            return reply != null;
        }

        public Reply asReply() {
            return reply == null ? null : new Reply((ObjectNode) reply);
        }
    }

    /**
     * Reads every transcript of the folder, processes in {@code spawnOrder} (so calls are in the order they were
     * made), then any transcript not named there, by file name.
     */
    public static WireFacts read(Path caseFolder, List<String> spawnOrder) throws IOException, FormatException {
        List<Path> transcripts;
        try (Stream<Path> files = Files.list(caseFolder)) {
            transcripts = files.filter(p -> p.getFileName().toString().endsWith(Layout.TRANSCRIPT_SUFFIX))
                    .sorted(Comparator.comparingInt((Path p) -> {
                        int index = spawnOrder.indexOf(process(p));
                        return index < 0 ? Integer.MAX_VALUE : index;
                    }).thenComparing(Path::toString))
                    .toList();
        }
        Folder folder = new Folder();
        for (Path transcript : transcripts) {
            new OneTranscript(folder, transcript).read();
        }
        return new WireFacts(List.copyOf(folder.calls), List.copyOf(folder.versions), folder.replies, List.copyOf(folder.nonFrames));
    }

    /** What every transcript of a case folder adds to: its calls in order, the versions asked for, the replies. */
    private static final class Folder {
        final List<Call> calls = new ArrayList<>();
        final TreeSet<String> versions = new TreeSet<>();
        final List<NonFrame> nonFrames = new ArrayList<>();
        int replies;
    }

    /** One process's transcript: its requests and replies by id, and over HTTP each response's status. */
    private static final class OneTranscript {
        private final Folder folder;
        private final Path transcript;
        private final String source;
        private final Map<Long, JsonNode> sent = new TreeMap<>();
        private final Map<Long, JsonNode> received = new TreeMap<>();
        private final Map<Long, Integer> statuses = new TreeMap<>();
        // Over HTTP a body belongs to the head before it, and a response to its request by the exchange number.
        private final Map<Integer, Long> requestOfExchange = new TreeMap<>();

        OneTranscript(Folder folder, Path transcript) {
            this.folder = folder;
            this.transcript = transcript;
            this.source = process(transcript);
        }

        void read() throws IOException, FormatException {
            HttpHead head = null;
            for (Transcript.Line line : Transcript.read(transcript)) {
                if (line.kind() == Transcript.Kind.HEAD) {
                    head = HttpHead.parse(line.text(), transcript.getFileName() + ": an HTTP head");
                    continue;
                }
                if (line.kind() == Transcript.Kind.NO_RESPONSE) {
                    head = null;
                    continue;
                }
                HttpHead of = head;
                head = null;
                if (of != null && line.direction() == Transcript.Direction.RECEIVED) {
                    httpBody(of, line);
                } else if (line.direction() == Transcript.Direction.SENT) {
                    request(of, line);
                } else {
                    stdioReply(line);
                }
            }
            for (Map.Entry<Long, JsonNode> entry : sent.entrySet()) {
                JsonNode request = entry.getValue();
                if (!"tools/call".equals(request.path("method").textValue())) {
                    continue;
                }
                JsonNode params = request.path("params");
                folder.calls.add(new Call(source, entry.getKey(), params.path("name").textValue(), params.has("inputResponses"),
                        params.has("requestState"), params.path("arguments"), received.get(entry.getKey()),
                        statuses.get(entry.getKey())));
            }
        }

        private void httpBody(HttpHead of, Transcript.Line line) {
            Long request = requestOfExchange.get(of.exchange());
            List<String> bodies = of.eventStream() && line.text() != null ? EventStream.data(line.text())
                    : java.util.Collections.singletonList(line.text());
            boolean framed = false;
            for (String body : bodies) {
                JsonNode reply = frameOrNull(body);
                if (reply == null) {
                    continue;
                }
                framed = true;
                reply(reply);
            }
            if (request != null) {
                statuses.put(request, of.status());
            }
            // 202 with no body is how Streamable HTTP accepts a notification (an SDK client's cancel, say).
            boolean accepted = of.status() == 202 && line.text() != null && line.text().isEmpty();
            if (!framed && of.status() / 100 == 2 && !accepted) {
                nonFrame("HTTP " + of.status() + " body " + (line.text() != null ? line.text() : "(not UTF-8, base64) " + line.recorded()));
            }
        }

        private void request(HttpHead of, Transcript.Line line) {
            JsonNode request = frameOrNull(line.text());
            if (request == null) {
                return; // bytes the runner sent that are no request (none in the frozen cases)
            }
            if (request.path("id").isIntegralNumber()) {
                sent.put(request.get("id").longValue(), request);
                if (of != null) {
                    requestOfExchange.put(of.exchange(), request.get("id").longValue());
                }
            }
            String version = request.path("params").path("_meta").path("io.modelcontextprotocol/protocolVersion").textValue();
            if (version != null) {
                folder.versions.add(version);
            }
        }

        private void stdioReply(Transcript.Line line) {
            JsonNode reply = frameOrNull(line.text());
            if (reply == null) {
                nonFrame(line.text() != null ? line.text() : "(not UTF-8, base64) " + line.recorded());
                return;
            }
            reply(reply);
        }

        private void reply(JsonNode reply) {
            folder.replies++;
            if (reply.path("id").isIntegralNumber()) {
                received.put(reply.get("id").longValue(), reply);
            }
        }

        private void nonFrame(String shown) {
            folder.nonFrames.add(new NonFrame(source, shown.length() > QUOTED ? shown.substring(0, QUOTED) + "..." : shown));
        }
    }

    private static String process(Path transcript) {
        String file = transcript.getFileName().toString();
        return file.substring(0, file.length() - Layout.TRANSCRIPT_SUFFIX.length());
    }

    private static JsonNode frameOrNull(String text) {
        if (text == null) {
            return null;
        }
        try {
            JsonNode node = ExactJson.parse(text);
            return node.isObject() && "2.0".equals(node.path("jsonrpc").textValue()) ? node : null;
        } catch (IllegalArgumentException notJson) {
            return null;
        }
    }

    public List<Call> continuations() {
        return calls.stream().filter(Call::continuation).toList();
    }

    public List<Call> statusCalls() {
        return calls.stream().filter(c -> "get_operation_status".equals(c.tool())).toList();
    }
}
