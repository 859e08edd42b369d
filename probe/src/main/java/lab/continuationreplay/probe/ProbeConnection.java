package lab.continuationreplay.probe;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * The probe's way to one server: stdio lines to a process it started, or HTTP exchanges with a URL. Every byte either
 * way is in the transcript; a request either gets the reply with its id or an {@link Exchange} that says why not.
 */
public interface ProbeConnection extends AutoCloseable {
    /** Sends one request frame (it carries its id) and waits for its reply. */
    Exchange send(ObjectNode frame);

    /** Sends every frame at once (one line after another, or one connection each) and waits for every reply. */
    List<Exchange> sendTogether(List<ObjectNode> frames);

    /**
     * Sends one request and gives up on it at once (p2b): over HTTP the connection is closed right after the request;
     * over stdio {@code notifications/cancelled} for it follows at once. A reply that still comes within a second is
     * returned (and discarded by the probe); else the exchange says how it was cut.
     */
    Exchange cut(ObjectNode frame, ObjectNode cancelled);

    /** Sends a notification (no id, no reply); answers why it could not be written, or null. */
    default String notify(ObjectNode notification) {
        return "notifications are sent over stdio only";
    }

    /** Whether the server is there to answer: a live process, or an HTTP server that has answered anything. */
    default boolean alive() {
        return true;
    }

    @Override
    void close();

    /**
     * The response to a request the server sent in the middle of a call: what {@code responder} answers for its method
     * and params, or a method-not-found error when it answers nothing (or there is no responder).
     */
    static ObjectNode answer(ObjectNode request, java.util.function.BiFunction<String, com.fasterxml.jackson.databind.JsonNode,
            com.fasterxml.jackson.databind.JsonNode> responder) {
        com.fasterxml.jackson.databind.JsonNode result = responder == null ? null
                : responder.apply(request.path("method").asText(), request.path("params"));
        ObjectNode response = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode().put("jsonrpc", "2.0");
        response.set("id", request.get("id"));
        if (result == null) {
            response.putObject("error").put("code", -32601).put("message", "lab probe does not answer " + request.path("method").asText());
        } else {
            response.set("result", result);
        }
        return response;
    }
}
