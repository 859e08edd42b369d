package lab.continuationreplay.cli.containers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import lab.continuationreplay.cli.EvidenceCopies;
import lab.continuationreplay.cli.LabProcess;
import lab.continuationreplay.core.LabHome;
import lab.continuationreplay.core.exec.Exec;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code lab replicas} end to end, in the quick form the test command runs: the network the run creates reaches
 * only its peers, the cells {@code QUICK} (a lost reply recovered on the other replica, a replica cut off from the
 * database mid-commit, the database killed between commit and reply, each on Java replicas (ledger in-process) and Go
 * replicas (ledger in a bridge), and Java to TypeScript) pass on real replica containers and a real PostgreSQL container, judged by the checker alone; {@code lab verify} agrees and refuses a
 * forged isolation record; nothing of the run is left behind (containers, network, secrets). The whole set of cells
 * on every SDK is {@code ./lab replicas}. Evidence stays in {@code lab-cli/target/replicas-it/<UTC time>/}.
 */
@ExtendWith(DockerEngine.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class LabReplicasIT {
    static final String QUICK = "r1,r4,r5,x1";
    private Path out;
    private LabProcess.Result run;

    @BeforeAll
    void runTheQuickCells() throws Exception {
        out = LabHome.resolve().resolve("lab-cli/target/replicas-it")
                .resolve(ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("uuuuMMdd'T'HHmmss'Z'")));
        // HOME: the image cache the other container tests fill (build-images.sh keeps it under the user's home)
        run = LabProcess.run(List.of("replicas", "--sdk", "java,go", "--cells", QUICK, "--out", out.toString()),
                Map.of("HOME", System.getProperty("user.home")), new byte[0], Duration.ofMinutes(15));
    }

    @Test
    @Order(1)
    void everyCellPassesOnAnIsolatedNetwork() {
        assertEquals(0, run.exitCode(), run.stdout() + run.stderr());
        assertTrue(run.stdout().contains("network   isolated: the containers reached the database and nothing else"), run.stdout());
        for (String cell : QUICK.split(",")) {
            for (String attempt : cell.startsWith("x") ? List.of("cross") : List.of("java", "go")) {
                assertTrue(run.stdout().lines().anyMatch(line -> line.matches("replicas-" + attempt + " +" + cell + " .* pass .*")),
                        attempt + " " + cell + " passes: " + run.stdout());
            }
        }
        assertTrue(run.stderr().contains("(host) not reached"), run.stderr());
    }

    @Test
    @Order(2)
    void labVerifyAgreesAndRefusesAForgedIsolationRecord() throws Exception {
        LabProcess.Result verified = LabProcess.run(List.of("verify", out.toString()), Map.of(), new byte[0]);
        assertEquals(0, verified.exitCode(), verified.stdout() + verified.stderr());
        assertTrue(verified.stdout().contains("\"network\""), verified.stdout());
        Path forged = out.resolveSibling(out.getFileName() + "-forged");
        EvidenceCopies.copyTree(out, forged);
        Path network = forged.resolve("network.json");
        Files.writeString(network, Files.readString(network).replaceFirst("(\"role\" : \"host\",\\s*\"reached\" : )false", "$1true"));
        LabProcess.Result refused = LabProcess.run(List.of("verify", forged.toString()), Map.of(), new byte[0]);
        assertEquals(1, refused.exitCode(), refused.stdout() + refused.stderr());
        assertTrue(refused.stdout().contains("the network is not isolated"), refused.stdout());
    }

    @Test
    @Order(3)
    void nothingOfTheRunIsLeftBehind() throws Exception {
        Exec.Result containers = Exec.run(List.of("docker", "ps", "-aq", "--filter", "label=lab.continuationreplay=replicas"),
                Duration.ofSeconds(30));
        assertEquals("", containers.output().strip(), "containers left: " + containers.output());
        Exec.Result networks = Exec.run(List.of("docker", "network", "ls", "-q", "--filter", "name=crlab-replicas-"),
                Duration.ofSeconds(30));
        assertEquals("", networks.output().strip(), "networks left: " + networks.output());
        try (Stream<Path> temporary = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            assertEquals(List.of(), temporary.filter(p -> p.getFileName().toString().startsWith("crlab-replicas-secrets-")).toList(),
                    "the run's secrets folder is deleted");
        }
    }
}
