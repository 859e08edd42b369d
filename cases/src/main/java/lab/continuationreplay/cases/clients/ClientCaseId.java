package lab.continuationreplay.cases.clients;

import java.util.Arrays;

/**
 * The cases the official clients' APIs can express (a subset of the frozen twelve, by their numbers), plus three that
 * exist only for clients: the automatic retry after a lost reply, a reply dropped while the server stays up, and the
 * manual round after {@code listTools()}.
 */
public enum ClientCaseId {
    IDENTICAL_RETRY("01"),
    NEVER_ADMITTED("02"),
    LOST_REPLY_THEN_EXPLICIT_REPLAY("03"),
    AUTOMATIC_RETRY_AFTER_LOST_REPLY("03-auto"),
    CHANGED_INPUT_RESPONSES("04"),
    CHANGED_REQUEST_STATE("05"),
    CONCURRENT_CLIENTS("08"),
    CRASH_THEN_STATUS("09"),
    RETENTION_EXPIRY("10"),
    REQUEST_STATE_STRIPPED("11"),
    PARTIAL_EFFECT("12"),
    DROPPED_REPLY("dropped-reply"),
    MANUAL_ROUND_AFTER_LIST_TOOLS("output-schema"),
    DEFAULT_VERSION_NEGOTIATION("version-default");

    private final String label;

    ClientCaseId(String label) {
        this.label = label;
    }

    /** The id in folder names and {@code --cases}: {@code 01}, {@code 03-auto}, {@code dropped-reply}. */
    public String label() {
        return label;
    }

    /** The operation id its calls carry: {@code client-01}, {@code client-03-auto}. */
    public String operationId() {
        return "client-" + label;
    }

    public static ClientCaseId of(String label) {
        return Arrays.stream(values()).filter(c -> c.label.equals(label)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no client case " + label + " (the client cases are "
                        + String.join(", ", Arrays.stream(values()).map(ClientCaseId::label).toList()) + ")"));
    }
}
