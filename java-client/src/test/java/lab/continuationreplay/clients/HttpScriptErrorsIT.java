package lab.continuationreplay.clients;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.SocketTimeoutException;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * An HTTP server entry the driver will not use: exit 2, one stderr line naming the server and the variable (never a
 * token), no records file, and not one connection made. A plain listening socket stands where the server would be,
 * so that any request the driver sent would be seen.
 */
class HttpScriptErrorsIT {
    @TempDir
    Path dir;

    private static String script(String url, String tokenEnv) {
        return """
                {"format": "client-script/1",
                 "servers": {"web": {"url": "%s", "bearer_token_env": "%s"}},
                 "request_timeout_ms": 1000, "version_mode": "pin",
                 "steps": [{"op": "connect", "connection": "a", "server": "web"},
                           {"op": "status", "connection": "a", "operation_id": "never-sent"}]}""".formatted(url, tokenEnv);
    }

    private static void assertRefusedBeforeAnyRequest(DriverProcess.Run run, String problem, ServerSocket listener) throws Exception {
        assertEquals(2, run.exit(), run::describe);
        assertEquals("script error: servers.web: " + problem + "\n", run.stderr(), "exactly one line on stderr");
        assertEquals("", run.stdout());
        assertFalse(run.wroteRecords(), "no records file for a script that never ran");
        // The driver has ended: a connection it made would be waiting in the backlog by now.
        listener.setSoTimeout(300);
        assertThrows(SocketTimeoutException.class, listener::accept, "the driver connected although it refused the script");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', nullValues = "NONE", textBlock = """
            LAB_TEST_NEVER_SET_TOKEN | NONE                                      | bearer_token_env LAB_TEST_NEVER_SET_TOKEN is not set in the driver's environment
            LAB_TEST_SHORT_TOKEN     | short-token-0123456789abcdef              | bearer_token_env LAB_TEST_SHORT_TOKEN holds a token shorter than 32 characters
            LAB_TEST_SPACED_TOKEN    | spaced token 0123456789abcdef0123456789ab | bearer_token_env LAB_TEST_SPACED_TOKEN holds a character other than printable ASCII (no spaces)
            """)
    void aMissingOrUnusableTokenIsAScriptErrorAndNoRequestIsSent(String variable, String value, String problem) throws Exception {
        try (ServerSocket listener = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"))) {
            String url = "http://127.0.0.1:" + listener.getLocalPort() + "/mcp";
            Map<String, String> env = value == null ? Map.of() : Map.of(variable, value);

            DriverProcess.Run run = DriverProcess.run(dir, script(url, variable), env);

            assertRefusedBeforeAnyRequest(run, problem, listener);
            if (value != null) {
                assertFalse(run.stderr().contains(value), "the token's value is never printed");
            }
        }
    }

    /** 127.0.0.2 and 127.1 reach this machine too, but only the three names the contract lists are accepted. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            127.0.0.2 | http://127.0.0.2:%d/mcp            | url must name a loopback host (127.0.0.1, localhost or [::1]), not 127.0.0.2
            127.0.0.1 | http://127.1:%d/mcp                | url must name a loopback host (127.0.0.1, localhost or [::1]), not 127.1
            127.0.0.1 | http://example.com:%d/mcp          | url must name a loopback host (127.0.0.1, localhost or [::1]), not example.com
            127.0.0.1 | https://127.0.0.1:%d/mcp           | url must be an http:// URL
            127.0.0.1 | http://alice:pw@127.0.0.1:%d/mcp   | url must not carry user information
            """)
    void aUrlOffTheListedLoopbackNamesIsAScriptErrorAndNoRequestIsSent(String address, String url, String problem) throws Exception {
        try (ServerSocket listener = new ServerSocket(0, 50, InetAddress.getByName(address))) {
            DriverProcess.Run run = DriverProcess.run(dir, script(url.formatted(listener.getLocalPort()), "LAB_TEST_TOKEN"),
                    Map.of("LAB_TEST_TOKEN", HttpServerProcess.ALICE_TOKEN));

            assertRefusedBeforeAnyRequest(run, problem, listener);
        }
    }
}
