package lab.continuationreplay.probe.proxy;

import java.net.URI;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import lab.continuationreplay.probe.ProbeInputException;

/**
 * What {@code lab proxy} is told: where the server is (a stdio command it starts, or a loopback URL it listens in
 * front of), which completing reply to lose and how, when to stop, and where its history goes.
 *
 * @param nth   which reply that completes a tool call is lost, from 1, counted over every session of the run
 * @param calls stop once this many tool calls have completed at the server (a lost reply counts); null: run until the
 *              client ends the session or SIGTERM
 */
public record ProxyOptions(Upstream upstream, Loss loss, int nth, Integer calls, Path out) {
    public ProxyOptions {
        Objects.requireNonNull(upstream, "upstream");
        Objects.requireNonNull(loss, "loss");
        Objects.requireNonNull(out, "out");
        if (nth < 1) {
            throw new ProbeInputException("--nth counts completed tool calls from 1, not " + nth);
        }
        if (calls != null && calls < 1) {
            throw new ProbeInputException("--calls must be 1 or more, not " + calls);
        }
    }

    /** Where the server is. */
    public sealed interface Upstream permits Stdio, Http {}

    /** A stdio server the proxy starts, run as given (no shell), with the proxy's own environment. */
    public record Stdio(List<String> command) implements Upstream {
        public Stdio {
            command = List.copyOf(command);
            if (command.isEmpty()) {
                throw new ProbeInputException("name the server's command after --, or give --listen PORT --upstream URL");
            }
        }
    }

    /** A Streamable HTTP server at {@code url}; the proxy listens on 127.0.0.1:{@code listenPort} (0: a free port). */
    public record Http(int listenPort, URI url) implements Upstream {
        public Http {
            if (listenPort < 0 || listenPort > 65535) {
                throw new ProbeInputException("--listen must be a port from 0 to 65535, not " + listenPort);
            }
            if (!"http".equals(url.getScheme()) || url.getHost() == null) {
                throw new ProbeInputException("--upstream " + url + " must be an http:// URL");
            }
            if (!List.of("127.0.0.1", "localhost").contains(url.getHost())) {
                throw new ProbeInputException("--upstream " + url + " is not on this machine: lab proxy relays to 127.0.0.1 only");
            }
            if (url.getPort() < 1) {
                throw new ProbeInputException("--upstream " + url + " names no port");
            }
        }

        /** The URL with the host as the relay connects to it. */
        URI loopback() {
            return URI.create("http://127.0.0.1:" + url.getPort() + (url.getRawPath() == null || url.getRawPath().isEmpty() ? "/" : url.getRawPath()));
        }
    }

    /** How the chosen reply is lost. */
    public enum Loss {
        /** The reply never reaches the client; the connection stays open and silent (the client's timeout ends it). */
        FINAL_REPLY("final-reply"),
        /** The reply never reaches the client, and its connection ends at once (stdio: the server's output closes). */
        CONNECTION_AFTER_COMMIT("connection-after-commit");

        private final String label;

        Loss(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }

        public static Loss of(String label) {
            return Arrays.stream(values()).filter(l -> l.label.equals(label)).findFirst().orElseThrow(() ->
                    new ProbeInputException("--lose must be final-reply or connection-after-commit, not '" + label + "'"));
        }
    }
}
