package lab.continuationreplay.checker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The replicas' isolation, judged from network.json alone: the peer reached, nothing else. */
class NetworkCheckTest {
    @TempDir
    Path folder;

    private List<String> judge(String attempts) throws Exception {
        Files.writeString(folder.resolve(NetworkCheck.FILE), "{\"format\":\"network/1\",\"subnet\":\"10.231.7.0/24\",\"attempts\":["
                + attempts + "]}");
        return NetworkCheck.problems(folder);
    }

    private static final String PEER = "{\"target\":\"10.231.7.2:5432\",\"role\":\"peer\",\"reached\":true}";
    private static final String GATEWAY = "{\"target\":\"10.231.7.1:5432\",\"role\":\"gateway\",\"reached\":false}";
    private static final String HOST = "{\"target\":\"172.16.0.2:40000\",\"role\":\"host\",\"reached\":false}";

    @Test
    void thePeerReachedAndNothingElseIsIsolated() throws Exception {
        assertEquals(List.of(), judge(PEER + "," + GATEWAY + "," + HOST));
    }

    @Test
    void aReachedHostOrGatewayIsAProblem() throws Exception {
        List<String> problems = judge(PEER + "," + GATEWAY.replace("false", "true") + "," + HOST.replace("false", "true"));
        assertEquals(2, problems.size(), problems.toString());
        assertTrue(problems.get(1).contains("172.16.0.2:40000 (host): the network is not isolated"), problems.toString());
    }

    @Test
    void anUnreachedPeerIsAProblem() throws Exception {
        assertEquals(List.of("a container did not reach its peer 10.231.7.2:5432"),
                judge(PEER.replace("true", "false") + "," + GATEWAY + "," + HOST));
    }

    @Test
    void aRecordWithoutTheHostAttemptOrWithAnUnknownRoleIsRefused() throws Exception {
        assertEquals(List.of("network.json lacks the host attempt the probe always makes"), judge(PEER + "," + GATEWAY));
        assertTrue(judge(PEER + "," + HOST + ",{\"target\":\"x\",\"role\":\"friend\",\"reached\":false}").get(0)
                .contains("not one the probe makes"));
        assertTrue(judge(PEER + "," + HOST.replace("false", "\"no\"")).get(0).contains("not one the probe makes"));
    }

    @Test
    void aMissingOrForeignFileIsAProblemNotAPass() throws Exception {
        assertTrue(NetworkCheck.problems(folder).get(0).startsWith("missing "));
        Files.writeString(folder.resolve(NetworkCheck.FILE), "{\"format\":\"network/2\",\"attempts\":[]}");
        assertEquals(1, NetworkCheck.problems(folder).size());
        Files.writeString(folder.resolve(NetworkCheck.FILE), "{\"format\":\"network/1\",\"attempts\":[]}");
        assertEquals(List.of("network.json holds no attempts"), NetworkCheck.problems(folder));
    }
}
