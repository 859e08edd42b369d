package lab.continuationreplay.matrix.clients;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import lab.continuationreplay.cases.clients.ClientCase;
import lab.continuationreplay.cases.clients.ClientCaseId;
import lab.continuationreplay.cases.clients.ClientCases;
import lab.continuationreplay.cases.clients.Seen;
import org.junit.jupiter.api.Test;

/** Only a case that waits out a dropped reply keeps a short request timeout; the others wait for a slow start. */
class RequestTimeoutTest {
    @Test
    void theCasesThatDropAReplyAreExactlyThoseThatExpectATimeout() {
        for (ClientCaseId id : ClientCaseId.values()) {
            ClientCase clientCase = ClientCases.spec(id);
            boolean expectsTimeout = clientCase.expectations().stream()
                    .flatMap(e -> java.util.stream.Stream.concat(e.seen().stream(), e.byCell().values().stream().map(d -> d.seen())))
                    .anyMatch(seen -> seen.kind() == Seen.Kind.TIMEOUT);
            assertEquals(expectsTimeout, clientCase.dropsAReply(), id.label());
        }
        assertTrue(ClientCases.spec(ClientCaseId.DROPPED_REPLY).dropsAReply());
        assertFalse(ClientCases.spec(ClientCaseId.CRASH_THEN_STATUS).dropsAReply());
    }

    @Test
    void aShortTimeoutIsRaisedOnlyWhereNoReplyIsDropped() {
        Duration three = Duration.ofSeconds(3);
        assertEquals(three, ClientsRunner.requestTimeout(three, true));
        assertEquals(ClientsRunner.UNHURRIED_TIMEOUT, ClientsRunner.requestTimeout(three, false));
        for (Duration longer : List.of(Duration.ofSeconds(30), Duration.ofSeconds(45))) {
            assertEquals(longer, ClientsRunner.requestTimeout(longer, false));
            assertEquals(longer, ClientsRunner.requestTimeout(longer, true));
        }
    }
}
