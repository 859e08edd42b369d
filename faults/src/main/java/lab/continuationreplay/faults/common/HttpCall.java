package lab.continuationreplay.faults.common;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import lab.continuationreplay.core.client.ToolClient;
import lab.continuationreplay.core.wire.HttpExchanges;
import lab.continuationreplay.core.wire.WireEnvelope;
import lab.continuationreplay.history.HttpHead.Header;
import lab.continuationreplay.vectors.ExactJson;

/**
 * Requests to a guarded HTTP server built by hand, for experiments that bend them (fuzzing, bearer attacks): the
 * JSON-RPC body of a tool call, header lists to edit, and the outcome of one exchange in words both SDKs share.
 */
public final class HttpCall {
    private HttpCall() {}

    /** What came back from one exchange: an HTTP status (and a JSON-RPC reply, if the body is one), or no response. */
    public record Outcome(int status, String ended, JsonNode reply, HttpExchanges.Response response) {
        public static Outcome of(HttpExchanges.Response response) {
            JsonNode reply = null;
            try {
                JsonNode parsed = ExactJson.parse(response.text());
                if (parsed != null && parsed.isObject() && "2.0".equals(parsed.path("jsonrpc").asText(null))) {
                    reply = parsed;
                }
            } catch (RuntimeException notJson) {
                // an HTML or text error page: the status says enough
            }
            return new Outcome(response.status(), null, reply, response);
        }

        public static Outcome none(HttpExchanges.NoResponse failure) {
            return new Outcome(0, failure.ended(), null, null);
        }

        public boolean answered() {
            return ended == null;
        }

        /** A JSON-RPC result that is not an {@code isError} result: the server ran the request. */
        public boolean success() {
            return answered() && status / 100 == 2 && reply != null && reply.has("result")
                    && !reply.path("result").path("isError").asBoolean(false);
        }

        public Integer rpcCode() {
            return reply != null && reply.has("error") ? reply.path("error").path("code").asInt() : null;
        }

        /**
         * A short label: {@code 200 result}, {@code 200 input_required}, {@code 400 -32602}, {@code 200 isError},
         * {@code 413}, or {@code no response: closed}.
         */
        public String label() {
            if (!answered()) {
                return "no response: " + NoResponseKind.of(ended).label();
            }
            StringBuilder label = new StringBuilder(Integer.toString(status));
            if (reply != null) {
                if (reply.has("error")) {
                    label.append(' ').append(reply.path("error").path("code").asInt());
                } else if (reply.path("result").path("isError").asBoolean(false)) {
                    label.append(" isError");
                } else if ("input_required".equals(reply.path("result").path("resultType").asText())) {
                    label.append(" input_required");
                } else {
                    label.append(" result");
                }
            }
            return label.toString();
        }
    }

    /** How an exchange ended without a response, in a few kinds (the full text stays in the transcript). */
    public enum NoResponseKind {
        CLOSED("closed"), RESET("reset"), TIMED_OUT("timed out"), BROKEN("broken response");

        private final String label;

        NoResponseKind(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }

        static NoResponseKind of(String ended) {
            String text = ended.toLowerCase(Locale.ROOT);
            if (text.contains("no response within")) {
                return TIMED_OUT;
            }
            if (text.contains("reset") || text.contains("broken pipe")) {
                return RESET;
            }
            if (text.startsWith("closed") || text.contains("connection failed")) {
                return CLOSED;
            }
            return BROKEN;
        }
    }

    /** The params of {@code create_guarded_issue}: round one, or the continuation when {@code state} is not null. */
    public static ObjectNode createParams(ObjectNode arguments, String state, String body) {
        ObjectNode params = JsonNodeFactory.instance.objectNode();
        params.put("name", ToolClient.CREATE);
        params.set("arguments", arguments);
        if (state != null) {
            params.set("inputResponses", ToolClient.accepted(body));
            params.put("requestState", state);
        }
        params.set("_meta", WireEnvelope.meta());
        return params;
    }

    /** A JSON-RPC request frame as bytes. */
    public static byte[] frame(long id, String method, ObjectNode params) {
        ObjectNode frame = JsonNodeFactory.instance.objectNode();
        frame.put("jsonrpc", "2.0");
        frame.put("id", id);
        frame.put("method", method);
        frame.set("params", params);
        return frame.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** {@code headers} with every header called {@code name} replaced by one with {@code value} (at its first place). */
    public static List<Header> with(List<Header> headers, String name, String value) {
        List<Header> edited = new ArrayList<>();
        boolean placed = false;
        for (Header header : headers) {
            if (header.name().equalsIgnoreCase(name)) {
                if (!placed) {
                    edited.add(new Header(header.name(), value));
                    placed = true;
                }
            } else {
                edited.add(header);
            }
        }
        if (!placed) {
            edited.add(edited.size() > 0 && edited.get(edited.size() - 1).name().equalsIgnoreCase("Connection")
                    ? edited.size() - 1 : edited.size(), new Header(name, value));
        }
        return edited;
    }

    /** {@code headers} without any header called {@code name}. */
    public static List<Header> without(List<Header> headers, String name) {
        return headers.stream().filter(h -> !h.name().equalsIgnoreCase(name)).toList();
    }

    /** {@code headers} with one more header right after the first called {@code after} (or at the end). */
    public static List<Header> plus(List<Header> headers, String after, Header extra) {
        List<Header> edited = new ArrayList<>(headers);
        for (int i = 0; i < edited.size(); i++) {
            if (edited.get(i).name().equalsIgnoreCase(after)) {
                edited.add(i + 1, extra);
                return edited;
            }
        }
        edited.add(extra);
        return edited;
    }

    /** The value of the first header called {@code name}, or null. */
    public static String value(List<Header> headers, String name) {
        return headers.stream().filter(h -> h.name().equalsIgnoreCase(name)).map(Header::value).findFirst().orElse(null);
    }
}
