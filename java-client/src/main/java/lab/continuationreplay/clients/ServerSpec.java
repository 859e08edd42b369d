package lab.continuationreplay.clients;

import java.net.URI;
import java.util.List;
import java.util.Map;

/** One server of the script: a process the driver starts (stdio), or one the lab already runs (Streamable HTTP). */
public sealed interface ServerSpec {

    /** The record's {@code transport} for a connection to this server. */
    String transport();

    /** How to start the server: its argv and what the script adds to the driver's environment. */
    record Stdio(List<String> command, Map<String, String> env) implements ServerSpec {
        public Stdio {
            command = List.copyOf(command);
            env = Map.copyOf(env);
        }

        @Override
        public String transport() {
            return "stdio";
        }
    }

    /**
     * Where the server listens, and its bearer token read from the variable {@code tokenEnv} of the driver's
     * environment. The script names only the variable: the script is kept as evidence, the token is not.
     */
    record Http(URI url, String tokenEnv, String token) implements ServerSpec {
        @Override
        public String transport() {
            return "http";
        }

        // A record prints every component; this one must never print the token, not even in a stack trace.
        @Override
        public String toString() {
            return "Http[url=" + url + ", tokenEnv=" + tokenEnv + "]";
        }
    }
}
