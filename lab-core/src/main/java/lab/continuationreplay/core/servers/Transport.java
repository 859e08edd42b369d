package lab.continuationreplay.core.servers;

import java.util.Arrays;

/** How the lab reaches a server: its stdin/stdout, or Streamable HTTP on a loopback port with a bearer token. */
public enum Transport {
    STDIO("stdio"),
    HTTP("http");

    private final String label;

    Transport(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    /** The attempt folder of {@code sdk} over this transport: {@code java} over stdio, {@code java-http} over HTTP. */
    public String attempt(String sdk) {
        return this == STDIO ? sdk : sdk + lab.continuationreplay.history.Layout.HTTP_SUFFIX;
    }

    /** @throws IllegalArgumentException naming the choices */
    public static Transport fromLabel(String label) {
        return Arrays.stream(values()).filter(t -> t.label.equals(label)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown transport '" + label + "' (stdio, http or all)"));
    }
}
