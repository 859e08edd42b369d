package lab.continuationreplay.server.http;

import java.util.Map;

/**
 * The HTTP mode's limits. The port comes from {@code --http PORT}; the rest from the environment, with defaults
 * that tests shorten (a 10 s read timeout would make a stalled-client test slow).
 *
 * @param readTimeoutMillis how long a connection may stay silent while the server waits for headers or body bytes
 * @param maxConcurrent requests inside the server at once; one more is answered 503 at once instead of queueing
 */
public record HttpSettings(int port, int readTimeoutMillis, int maxConcurrent, int maxBodyBytes) {
    public static final String READ_TIMEOUT_MS = "WIRE_HTTP_READ_TIMEOUT_MS";
    public static final String MAX_CONCURRENT = "WIRE_HTTP_MAX_CONCURRENT";
    public static final int MAX_BODY_BYTES = 4 * 1024 * 1024;

    public static HttpSettings of(String portArgument, Map<String, String> environment) {
        int port;
        try {
            port = Integer.parseInt(portArgument);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--http needs a port number (0 picks a free one)");
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("--http port must be 0..65535");
        }
        return new HttpSettings(port, positive(environment, READ_TIMEOUT_MS, 10_000),
                positive(environment, MAX_CONCURRENT, 64), MAX_BODY_BYTES);
    }

    private static int positive(Map<String, String> environment, String name, int fallback) {
        String text = environment.get(name);
        if (text == null || text.isEmpty()) {
            return fallback;
        }
        try {
            int value = Integer.parseInt(text.trim());
            if (value > 0) {
                return value;
            }
        } catch (NumberFormatException e) {
            // fall through to the one message
        }
        throw new IllegalArgumentException(name + " must be a positive whole number");
    }
}
