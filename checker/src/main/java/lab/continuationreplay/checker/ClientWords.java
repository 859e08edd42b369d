package lab.continuationreplay.checker;

import com.fasterxml.jackson.databind.JsonNode;
import lab.continuationreplay.cases.clients.ClientTransport;
import lab.continuationreplay.cases.clients.ClientVocabulary;
import lab.continuationreplay.cases.clients.Seen;
import lab.continuationreplay.history.Reply;

/**
 * Reads one client record two ways: what the application saw, in words shared by every cell ({@link Seen}), and how
 * this client showed it ({@link #shown}: an exception type and code, an {@code isError} result, a result). The first
 * is judged against the case's expectations; the second is reported beside it, so a difference stays visible.
 */
final class ClientWords {
    private ClientWords() {}

    static Seen seen(String client, ClientTransport transport, String op, JsonNode record) {
        String outcome = record.path("outcome").asText();
        JsonNode result = record.path("result");
        JsonNode structured = result.path("structuredContent");
        return switch (outcome) {
            case "input_required" -> Seen.of(Seen.Kind.INPUT_REQUIRED);
            case "connected" -> Seen.of(Seen.Kind.CONNECTED);
            case "result" -> {
                if (op.equals("status")) {
                    yield Seen.of(Seen.Kind.STATUS, structured.path("state").asText("none"));
                }
                String state = structured.path("state").asText("none");
                yield Seen.of(structured.path("replayed").asBoolean(false) ? Seen.Kind.REPLAYED : Seen.Kind.RESULT, state);
            }
            case "tool_error" -> refusal(result.path("content").path(0).path("text").asText(""));
            case "threw" -> thrown(client, transport, record.path("threw"));
            default -> Seen.of(Seen.Kind.OTHER, outcome);
        };
    }

    private static Seen thrown(String client, ClientTransport transport, JsonNode threw) {
        String type = threw.path("type").asText();
        JsonNode code = threw.path("code");
        Seen.Kind unknown = ClientVocabulary.unknownOutcome(client, transport, new ClientVocabulary.Thrown(type,
                code.isNull() || code.isMissingNode() ? null : code.asText(), threw.path("message").textValue(), threw.path("cause").textValue()));
        if (unknown != null) {
            return Seen.of(unknown);
        }
        if (code.isIntegralNumber()) {
            Seen refusal = refusal(threw.path("message").asText(""));
            if (refusal.kind() != Seen.Kind.OTHER) {
                return refusal;
            }
            // A JSON-RPC code with no guard or state refusal in its message: the client (or the server's SDK) refused.
            return Seen.of(Seen.Kind.ERROR, Integer.toString(code.intValue()));
        }
        return Seen.of(Seen.Kind.OTHER, type + (code.isMissingNode() || code.isNull() ? "" : " " + code.asText()));
    }

    /** A refusal's text as the servers send it: a state refusal, a guard mechanism, or something else. */
    private static Seen refusal(String text) {
        String mechanism = Reply.mechanismOf(text);
        if (Reply.STATE_REJECTED.equals(mechanism)) {
            return Seen.of(Seen.Kind.STATE_REFUSED);
        }
        if (mechanism == null || mechanism.startsWith(Reply.OTHER_PREFIX)) {
            // A thrown message may wrap the server's text; find a known mechanism inside it.
            for (String known : new String[] {"operation_conflict", "operation_authority_expired", "operation_retention_expired",
                "operation_in_progress"}) {
                if (text.contains(known)) {
                    return Seen.of(Seen.Kind.REFUSED, known);
                }
            }
            if (text.contains("Invalid or expired requestState")) {
                return Seen.of(Seen.Kind.STATE_REFUSED);
            }
            if (text.contains("unsupported continuation")) {
                return Seen.of(Seen.Kind.REFUSED, Reply.UNSUPPORTED_CONTINUATION);
            }
            return Seen.of(Seen.Kind.OTHER, text.length() > 80 ? text.substring(0, 80) + "..." : text);
        }
        return Seen.of(Seen.Kind.REFUSED, mechanism);
    }

    /** How the client showed it: {@code threw McpException -32602}, {@code isError result}, {@code result}, ... */
    static String shown(JsonNode record) {
        String outcome = record.path("outcome").asText();
        if (!outcome.equals("threw")) {
            return outcome.equals("tool_error") ? "isError result" : outcome;
        }
        JsonNode threw = record.path("threw");
        JsonNode code = threw.path("code");
        return "threw " + threw.path("type").asText() + (code.isMissingNode() || code.isNull() ? "" : " " + code.asText());
    }
}
