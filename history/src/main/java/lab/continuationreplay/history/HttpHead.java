package lab.continuationreplay.history;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import lab.continuationreplay.vectors.ExactJson;

/**
 * The head of one side of an HTTP exchange in a transcript ({@link Transcript#request}, {@link Transcript#response},
 * {@link Transcript#noResponse}): which exchange and connection it belongs to, the request line or the status, and
 * the headers in the order they went over the wire. A bearer token is never in a head: the writer replaces it with
 * the name of its principal before it gets here.
 *
 * @param exchange   the exchange's number within its transcript, from 1; a response names its request's
 * @param connection the TCP connection's number within its transcript, from 1
 * @param requestLine {@code POST /mcp HTTP/1.1} on a request head, else null
 * @param status     the response status, or 0 on a request head and on an exchange without a response
 * @param ended      on an exchange without a response, how it ended (e.g. {@code closed before a response}); else null
 */
public record HttpHead(int exchange, int connection, String requestLine, int status, String ended, List<Header> headers) {
    /** One header as sent or received. */
    public record Header(String name, String value) {}

    public HttpHead {
        headers = List.copyOf(headers);
    }

    public static HttpHead request(int exchange, int connection, String requestLine, List<Header> headers) {
        return new HttpHead(exchange, connection, requestLine, 0, null, headers);
    }

    public static HttpHead response(int exchange, int connection, int status, List<Header> headers) {
        return new HttpHead(exchange, connection, null, status, null, headers);
    }

    public static HttpHead noResponse(int exchange, int connection, String ended) {
        return new HttpHead(exchange, connection, null, 0, ended, List.of());
    }

    /** The first value of header {@code name} (any case), or null. */
    public String header(String name) {
        return headers.stream().filter(h -> h.name().equalsIgnoreCase(name)).map(Header::value).findFirst().orElse(null);
    }

    /** Whether the body is an event stream ({@code text/event-stream}), whose {@code data:} lines carry the frames. */
    public boolean eventStream() {
        String type = header("Content-Type");
        return type != null && type.toLowerCase(Locale.ROOT).startsWith("text/event-stream");
    }

    /** One line of JSON, members in a fixed order. */
    public String json() {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        node.put("exchange", exchange);
        node.put("connection", connection);
        if (requestLine != null) {
            node.put("request", requestLine);
        }
        if (status != 0) {
            node.put("status", status);
        }
        if (ended != null) {
            node.put("ended", ended);
        }
        ArrayNode list = node.putArray("headers");
        headers.forEach(h -> list.addArray().add(h.name()).add(h.value()));
        return node.toString();
    }

    /** Reads a head back. @throws FormatException when it is not one */
    public static HttpHead parse(String json, String where) throws FormatException {
        JsonNode node;
        try {
            node = ExactJson.parse(json);
        } catch (IllegalArgumentException e) {
            throw new FormatException(where + ": an HTTP head that is not JSON");
        }
        if (!node.path("exchange").isInt() || !node.path("connection").isInt() || !node.path("headers").isArray()) {
            throw new FormatException(where + ": an HTTP head without exchange, connection and headers");
        }
        // The optional members are absent or of their type: "status":"200" or "request":5 is no head this lab wrote.
        if (node.has("status") && !node.get("status").isInt()) {
            throw new FormatException(where + ": an HTTP head whose \"status\" is not an integer");
        }
        for (String text : List.of("request", "ended")) {
            if (node.has(text) && !node.get(text).isTextual()) {
                throw new FormatException(where + ": an HTTP head whose \"" + text + "\" is not text");
            }
        }
        List<Header> headers = new ArrayList<>();
        for (JsonNode pair : node.get("headers")) {
            if (!pair.isArray() || pair.size() != 2 || !pair.get(0).isTextual() || !pair.get(1).isTextual()) {
                throw new FormatException(where + ": an HTTP header that is not a [name, value] pair");
            }
            headers.add(new Header(pair.get(0).textValue(), pair.get(1).textValue()));
        }
        return new HttpHead(node.get("exchange").intValue(), node.get("connection").intValue(), node.path("request").textValue(),
                node.path("status").intValue(), node.path("ended").textValue(), headers);
    }
}
