package lab.continuationreplay.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.PrintStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.List;
import lab.continuationreplay.core.servers.BearerCredentials;
import lab.continuationreplay.core.servers.ServerKind;
import lab.continuationreplay.core.servers.Transport;
import org.junit.jupiter.api.Test;

/** Which SDKs an experiment runs against over each transport. */
class FaultSessionTest {
    private static final PrintStream QUIET = new PrintStream(OutputStream.nullOutputStream());

    @Test
    void overStdioEverySdkUnderTestIsServed() {
        FaultSession session = new FaultSession(Path.of("home"), Path.of("out"), true, 1, ServerKind.SDKS, QUIET);
        assertEquals(ServerKind.SDKS, session.sdks());
    }

    @Test
    void overHttpTheSameSdksAreServedInTheOrderAsked() throws Exception {
        try (BearerCredentials credentials = new BearerCredentials()) {
            FaultSession stdio = new FaultSession(Path.of("home"), Path.of("out"), true, 1,
                    List.of(ServerKind.PYTHON, ServerKind.JAVA, ServerKind.GO), QUIET,
                    List.of(Transport.STDIO, Transport.HTTP), Transport.STDIO, credentials);
            assertEquals(List.of(ServerKind.PYTHON, ServerKind.JAVA, ServerKind.GO), stdio.sdks());
            FaultSession http = stdio.over(Transport.HTTP);
            assertEquals(List.of(ServerKind.PYTHON, ServerKind.JAVA, ServerKind.GO), http.sdks());
            assertEquals(Transport.HTTP, http.transport());
        }
    }
}
