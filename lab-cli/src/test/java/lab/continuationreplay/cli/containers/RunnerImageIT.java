package lab.continuationreplay.cli.containers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;
import lab.continuationreplay.containers.RuntimeCell;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.images.PullPolicy;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.utility.DockerImageName;

/**
 * The runner images themselves, before the long matrix runs: each cell's image holds the JDK and the Node.js its name
 * says, and the lab starts on them; and nothing is ever pulled. The four probe containers are declared here and
 * started by the Testcontainers extension (images resolved lazily, so declaring them builds nothing).
 */
@ExtendWith(DockerEngine.class)
@Testcontainers
class RunnerImageIT {
    private static final String PROBE = "java -version 2>&1 | head -1; echo \"node $(node --version)\"; echo \"LAB_NODE=$LAB_NODE\";"
            + " /opt/lab/bin/lab --version 2>/dev/null; ls /opt/lab/ts-fixture/node_modules/@modelcontextprotocol;"
            + " /opt/lab/py-fixture/.venv/bin/python -c 'import importlib.metadata as m, ssl; print(\"python mcp\", m.version(\"mcp\"))';"
            + " /opt/lab/go-fixture/target/bin/go-fixture </dev/null >/dev/null 2>&1; echo \"go-fixture exit $?\";"
            + " /opt/lab/go-fixture/target/bin/go-fixture </dev/null 2>&1 | head -1";

    @Container
    static final GenericContainer<?> JDK17_NODE20 = probe(new RuntimeCell(17, 20));
    @Container
    static final GenericContainer<?> JDK17_NODE22 = probe(new RuntimeCell(17, 22));
    @Container
    static final GenericContainer<?> JDK25_NODE20 = probe(new RuntimeCell(25, 20));
    @Container
    static final GenericContainer<?> JDK25_NODE22 = probe(new RuntimeCell(25, 22));

    private static GenericContainer<?> probe(RuntimeCell cell) {
        return new GenericContainer<>(TestImages.lazily(cell))
                .withNetworkMode("none")
                .withCreateContainerCmdModifier(cmd -> cmd.withEntrypoint("/bin/sh", "-c", PROBE))
                .withStartupCheckStrategy(new UntilExit(Duration.ofMinutes(2)));
    }

    @Test
    void eachImageHoldsTheRuntimesItsCellNames() {
        Map<RuntimeCell, GenericContainer<?>> probes = Map.of(new RuntimeCell(17, 20), JDK17_NODE20, new RuntimeCell(17, 22), JDK17_NODE22,
                new RuntimeCell(25, 20), JDK25_NODE20, new RuntimeCell(25, 22), JDK25_NODE22);
        probes.forEach((cell, probe) -> {
            String logs = probe.getLogs();
            assertEquals(0L, probe.getCurrentContainerInfo().getState().getExitCodeLong(), cell + ": " + logs);
            assertTrue(logs.contains("version \"" + cell.jdk() + "."), cell + ": " + logs);
            assertTrue(logs.contains("node v" + cell.node() + "."), cell + ": " + logs);
            assertTrue(logs.contains("LAB_NODE=/usr/local/bin/node"), cell + ": " + logs);
            assertTrue(logs.contains("Continuation Replay Lab 0.1.0"), cell + ": the lab starts on this JDK: " + logs);
            assertTrue(logs.contains("server"), cell + ": the TypeScript SDK is installed: " + logs);
            assertTrue(logs.contains("python mcp 2.3.0"), cell + ": the py-fixture's environment holds the Python SDK: " + logs);
            // Without its WIRE_* settings the Go fixture refuses to start, naming a variable: it ran in the image.
            assertTrue(logs.contains("go-fixture exit 2") && logs.contains("WIRE_"), cell + ": the Go fixture runs here: " + logs);
        });
    }

    @Test
    void theContainersHaveNoNetworkButLoopback() {
        assertEquals("none", JDK25_NODE22.getContainerInfo().getHostConfig().getNetworkMode());
    }

    @Test
    void nothingIsEverPulled() {
        assertInstanceOf(NeverPull.class, PullPolicy.defaultPolicy(), "testcontainers.properties names the never-pull policy");
        long started = System.nanoTime();
        try (GenericContainer<?> missing = new GenericContainer<>(DockerImageName.parse("local/lab-runner:no-such-tag"))
                .withNetworkMode("none")) {
            Exception refused = assertThrows(Exception.class, missing::start);
            String causes = causes(refused);
            assertTrue(causes.contains("No such image"), causes);
        }
        assertTrue(System.nanoTime() - started < Duration.ofSeconds(60).toNanos(), "a missing image fails fast, not in pull retries");
    }

    private static String causes(Throwable t) {
        StringBuilder s = new StringBuilder();
        for (Throwable c = t; c != null; c = c.getCause()) {
            s.append(c.getMessage()).append(" / ");
        }
        return s.toString();
    }
}
