package lab.continuationreplay.server.http;

import io.modelcontextprotocol.server.transport.HeaderAccessor;
import io.modelcontextprotocol.server.transport.ServerHttpHeaderValidator;
import io.modelcontextprotocol.server.transport.ServerTransportSecurityException;
import java.util.List;
import java.util.Locale;

/**
 * The {@code Host} and {@code Origin} values a loopback server accepts. A web page the user visits can make the
 * browser send requests to 127.0.0.1 (DNS rebinding, or a plain cross-origin POST); such a request carries the
 * attacker's host name or origin, which this refuses. The port is the bound one, known only after start
 * ({@code --http 0}).
 */
final class LoopbackHosts {
    private static final List<String> NAMES = List.of("127.0.0.1", "localhost", "[::1]");
    private volatile int port = -1;

    void bound(int port) {
        this.port = port;
    }

    /** A request needs a Host naming a loopback name and the bound port. */
    boolean hostAllowed(String host) {
        if (host == null) {
            return false;
        }
        String value = host.toLowerCase(Locale.ROOT);
        return NAMES.stream().anyMatch(name -> value.equals(name + ":" + port));
    }

    /** Browsers send Origin on cross-origin requests; other clients usually send none, which is fine. */
    boolean originAllowed(String origin) {
        if (origin == null) {
            return true;
        }
        String value = origin.toLowerCase(Locale.ROOT);
        return NAMES.stream().anyMatch(name -> value.equals("http://" + name + ":" + port));
    }

    /** The same rule for the SDK's own header check, so a request that bypassed the gate would still be refused. */
    ServerHttpHeaderValidator asSdkValidator() {
        return (HeaderAccessor headers) -> {
            if (!hostAllowed(single(headers.getHeader("Host")))) {
                throw new ServerTransportSecurityException(403, "Forbidden host");
            }
            List<String> origins = headers.getHeader("Origin");
            if (origins != null && !origins.isEmpty() && !originAllowed(single(origins))) {
                throw new ServerTransportSecurityException(403, "Forbidden origin");
            }
        };
    }

    private static String single(List<String> values) {
        return values == null || values.size() != 1 ? null : values.get(0);
    }
}
