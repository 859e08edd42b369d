package lab.continuationreplay.conformance.suite;

/** Which end of MCP a scenario judges: a server the suite calls, or a client the suite starts and answers. */
public enum Side {
    SERVER("server"),
    CLIENT("client");

    private final String label;

    Side(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    public static Side fromLabel(String label) {
        for (Side side : values()) {
            if (side.label.equals(label)) {
                return side;
            }
        }
        throw new IllegalArgumentException("unknown side '" + label + "' (server or client)");
    }
}
