package lab.continuationreplay.cli.faults;

import lab.continuationreplay.core.LabHome;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import lab.continuationreplay.cli.LabProcess;
import lab.continuationreplay.core.servers.JavaCommand;
import org.junit.jupiter.api.Test;

/**
 * The stdio proxy as a process of its own: its refusal of bad arguments and its faithful forwarding. The adversarial
 * experiments' invariants are asserted from one quick run of every experiment in {@link LabFaultsCommandIT}.
 */
class AdversarialExperimentsIT {
    @Test
    void theProxyRefusesBadArgumentsWithOneLineAndExit2() throws Exception {
        String jar = LabHome.labJar(LabProcess.home()).toString();
        String main = "lab.continuationreplay.faults.proxy.StdioProxyMain";
        List<List<String>> bad = List.of(
                List.of("--seed", "1", "--plan", "up.explode=0.1", "--", "cat"),
                List.of("--seed", "1", "--plan", "up.drop=0.1"),
                List.of("--seed", "1", "--plan", "up.drop=0.1", "--"),
                List.of("--plan", "up.drop=0.1", "--", "cat"),
                List.of("--seed", "x", "--plan", "none", "--", "cat"));
        for (List<String> args : bad) {
            List<String> command = JavaCommand.of(List.of(), "-cp", jar, main);
            command.addAll(args);
            Process process = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
            String stderr = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(2, process.waitFor(), args + ": " + stderr);
            assertTrue(stderr.startsWith("stdio-proxy: ") && stderr.strip().lines().count() == 1, args + ": " + stderr);
        }
    }

    @Test
    void theProxyForwardsEverythingWithTheEmptyPlan() throws Exception {
        String jar = LabHome.labJar(LabProcess.home()).toString();
        Process process = new ProcessBuilder(JavaCommand.of(List.of(), "-cp", jar, "lab.continuationreplay.faults.proxy.StdioProxyMain",
                "--seed", "1", "--plan", "none", "--", "cat")).start();
        try (var in = process.getOutputStream()) {
            in.write("one\ntwo\n{\"x\":3}\n".getBytes(StandardCharsets.UTF_8));
        }
        assertEquals("one\ntwo\n{\"x\":3}\n", new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
        assertEquals(0, process.waitFor());
    }
}
