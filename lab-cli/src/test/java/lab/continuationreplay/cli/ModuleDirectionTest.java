package lab.continuationreplay.cli;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackages;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Dependencies between the lab's modules point one way: vectors ← history ← lab-core ← matrix ← bench; cases ← matrix;
 * {history, cases, vectors} ← checker ← containers; {matrix, containers} ← replicas (never the checker); lab-core ← faults (never the checker: faults → history → checker, no cycle between its packages); lab-core ← conformance; everything ← lab-cli. The runner (matrix)
 * and the checker never meet: the history is the only thing between them. Maven already refuses an import of a module
 * a pom does not name; these rules also refuse a pom that names one the wrong way. One more rule keeps child processes
 * in one place: only {@code core.exec} constructs a {@link ProcessBuilder}. They read the main classes of
 * every module (lab-cli sees them all), never test classes.
 */
class ModuleDirectionTest {
    private static final String LAB = "lab.continuationreplay..";
    private static final String VECTORS = "lab.continuationreplay.vectors..";
    private static final String HISTORY = "lab.continuationreplay.history..";
    private static final String CORE = "lab.continuationreplay.core..";
    private static final String CASES = "lab.continuationreplay.cases..";
    private static final String CHECKER = "lab.continuationreplay.checker..";
    private static final String MATRIX = "lab.continuationreplay.matrix..";
    private static final String FAULTS = "lab.continuationreplay.faults..";
    private static final String BENCH = "lab.continuationreplay.bench..";
    private static final String CONTAINERS = "lab.continuationreplay.containers..";
    private static final String REPLICAS = "lab.continuationreplay.replicas..";
    private static final String CONFORMANCE = "lab.continuationreplay.conformance..";
    private static final String PROBE_RUNNER = "lab.continuationreplay.probe";
    private static final String PROXY_RUNNER = "lab.continuationreplay.probe.proxy..";
    private static final String PROBE_CHECK = "lab.continuationreplay.probe.check..";
    private static final String PROBE_REPORT = "lab.continuationreplay.probe.report..";
    private static final String WIRE = "lab.continuationreplay.core.wire..";
    private static final String CLI = "lab.continuationreplay.cli..";
    private static final String SERVERS = "lab.continuationreplay.server..";
    private static final String BRIDGE = "lab.continuationreplay.bridge..";
    private static final String CLIENT_DRIVER = "lab.continuationreplay.clients..";
    private static final String EXEC = "lab.continuationreplay.core.exec..";

    /** Each package of the fault lab its own slice, the root package included (a pattern with a capture would leave it out). */
    private static final SliceAssignment FAULT_PACKAGES = new SliceAssignment() {
        @Override
        public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
            String name = javaClass.getPackageName();
            return name.equals("lab.continuationreplay.faults") || name.startsWith("lab.continuationreplay.faults.")
                    ? SliceIdentifier.of(name) : SliceIdentifier.ignore();
        }

        @Override
        public String getDescription() {
            return "the fault lab's packages";
        }
    };

    static List<ArchRule> rules() {
        return List.of(
                noClasses().that().resideInAPackage(HISTORY).should().dependOnClassesThat(
                        resideInAPackage(LAB).and(resideOutsideOfPackages(HISTORY, VECTORS)))
                        .because("the evidence format is read by every job and the checker, so it may lean on vectors only"),
                noClasses().that().resideInAPackage(CORE).should().dependOnClassesThat()
                        .resideInAnyPackage(MATRIX, CHECKER, CASES, FAULTS, BENCH, CONTAINERS, REPLICAS, CONFORMANCE, CLI)
                        .because("lab-core is the bottom of the lab: the driver, the processes, the settings"),
                noClasses().that().resideInAPackage(MATRIX).should().dependOnClassesThat()
                        .resideInAnyPackage(CHECKER, FAULTS, BENCH, CONTAINERS, REPLICAS, CLI)
                        .because("the runner writes history and judges nothing; the fault lab, the benchmarks and the"
                                + " containers build on it, not it on them"),
                noClasses().that().resideInAPackage(FAULTS).should().dependOnClassesThat()
                        .resideInAnyPackage(BENCH, CONTAINERS, CLI, CHECKER)
                        .because("the fault lab is its own job, and like the matrix's runner it writes history and judges"
                                + " nothing: faults -> history -> checker"),
                slices().assignedFrom(FAULT_PACKAGES).should().beFreeOfCycles()
                        .because("the fault lab's packages stand on one another one way: the base (session, recorder,"
                                + " report), common, each family of experiments, the run's list"),
                noClasses().that().resideInAPackage(BENCH).should().dependOnClassesThat()
                        .resideInAnyPackage(FAULTS, CONTAINERS, CLI)
                        .because("the benchmarks are their own job"),
                noClasses().that().resideInAPackage(CONTAINERS).should().dependOnClassesThat()
                        .resideInAnyPackage(FAULTS, BENCH, CLI)
                        .because("the container runs are their own job"),
                noClasses().that().resideInAnyPackage(CORE, MATRIX, FAULTS, BENCH, CONTAINERS, REPLICAS, CONFORMANCE, CLI).should()
                        .dependOnClassesThat().resideInAnyPackage(SERVERS, BRIDGE, CLIENT_DRIVER)
                        .because("servers, the bridge and the client driver are started as processes, never linked into the lab"),
                noClasses().that().resideInAPackage("lab.continuationreplay.matrix.report..").should().dependOnClassesThat()
                        .resideInAnyPackage("lab.continuationreplay.matrix.run..")
                        .because("reports read the checker's records, never the runner"),
                noClasses().that().resideInAPackage(CHECKER).should().dependOnClassesThat(
                        resideInAPackage(LAB).and(resideOutsideOfPackages(CHECKER, HISTORY, VECTORS, CASES)))
                        .because("the checker trusts only the history: it reads history, the cases' specs and the rule"
                                + " tables, never the ledger, the runner, the wire driver or the servers"),
                noClasses().that().resideInAPackage(CASES).should().dependOnClassesThat(
                        resideInAPackage(LAB).and(resideOutsideOfPackages(CASES)))
                        .because("a case is its script and its spec, in its own words; the runner plays it, the checker reads it"),
                noClasses().that().resideOutsideOfPackage(EXEC).should().callConstructor(ProcessBuilder.class, List.class)
                        .orShould().callConstructor(ProcessBuilder.class, String[].class)
                        .because("child processes start in one place (Exec): its timeouts kill the whole tree, and no pipe is left unread"),
                noClasses().that().resideInAPackage(CONFORMANCE).should().dependOnClassesThat(
                        resideInAPackage(LAB).and(resideOutsideOfPackages(CONFORMANCE, CORE, HISTORY, VECTORS)))
                        .because("the conformance runs judge servers from outside, by URL, like any client: they need the"
                                + " lab's processes and wire tools, never its runner, checker or servers"),
                noClasses().that().resideInAPackage(REPLICAS).should().dependOnClassesThat()
                        .resideInAnyPackage(CHECKER, FAULTS, BENCH, CLI)
                        .because("lab replicas runs cells and writes history; the checker judges them, the command reports"),
                noClasses().that().resideInAPackage(PROBE_RUNNER).should().dependOnClassesThat(
                        resideInAPackage(LAB).and(resideOutsideOfPackages(PROBE_RUNNER, WIRE, EXEC, HISTORY, VECTORS)))
                        .because("lab probe's runner knows nothing of the lab's servers, runner or checks: it writes history of"
                                + " any server by URL or command, and the probe's checker judges it"),
                noClasses().that().resideInAPackage(PROXY_RUNNER).should().dependOnClassesThat(
                        resideInAPackage(LAB).and(resideOutsideOfPackages(PROXY_RUNNER, PROBE_RUNNER, WIRE, EXEC, HISTORY, VECTORS)))
                        .because("lab proxy's runner relays and records; the probe's checker says what the client did"),
                noClasses().that().resideInAPackage(PROBE_CHECK).should().dependOnClassesThat(
                        resideInAPackage(LAB).and(resideOutsideOfPackages(PROBE_CHECK, HISTORY, VECTORS)))
                        .because("the probe's checker trusts only the history, as the lab's checker does"),
                noClasses().that().resideInAPackage(PROBE_REPORT).should().dependOnClassesThat()
                        .resideInAnyPackage(PROBE_RUNNER, PROXY_RUNNER)
                        .because("reports read the checker's records, never the runner"),
                noClasses().that().resideInAnyPackage(WIRE, EXEC).should().dependOnClassesThat(
                        resideInAPackage(LAB).and(resideOutsideOfPackages(WIRE, EXEC, HISTORY, VECTORS)))
                        .because("the wire module is what the probe's jar stands on: it names no server, store or job"));
    }

    @Test
    void everyModuleDependsOnlyDownward() {
        JavaClasses main = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("lab.continuationreplay");
        assertTrue(main.size() > 200, "the rules saw the lab's classes (" + main.size() + ")");
        for (ArchRule rule : rules()) {
            rule.check(main);
        }
    }

    @Test
    void aWrongWayDependencyIsCaught() throws Exception {
        assertCaught("lab.continuationreplay.core.wrongway.ReachesIntoTheRunner", 1, "MatrixRunner",
                "lab-core reaching into the matrix runner must violate the lab-core rule");
    }

    @Test
    void theHistoryModuleLeaningOnLabCoreIsCaught() throws Exception {
        assertCaught("lab.continuationreplay.history.wrongway.ReachesIntoTheCore", 0, "LabHome",
                "history reaching into lab-core must violate the history rule");
    }

    @Test
    void theCheckerReachingIntoTheDriverIsCaught() throws Exception {
        assertCaught("lab.continuationreplay.checker.wrongway.TrustsTheDriver", 9, "ToolClient",
                "the checker reading replies through the runner's client must violate the checker rule");
    }

    @Test
    void theRunnerJudgingItsOwnHistoryIsCaught() throws Exception {
        assertCaught("lab.continuationreplay.matrix.wrongway.JudgesItsOwnRun", 2, "AttemptCheck",
                "the runner calling the checker must violate the matrix rule");
    }

    @Test
    void aProcessStartedOutsideExecIsCaught() throws Exception {
        assertCaught("lab.continuationreplay.core.wrongway.StartsItsOwnProcess", 11, "ProcessBuilder",
                "a ProcessBuilder constructed outside core.exec must violate the one-place-for-processes rule");
    }

    @Test
    void theFaultLabJudgingItsOwnHistoryIsCaught() throws Exception {
        assertCaught("lab.continuationreplay.faults.wrongway.JudgesItsOwnFaults", 3, "FaultsCheck",
                "an experiment calling the faults checker must violate the faults rule");
    }

    @Test
    void aCycleBetweenTwoPackagesOfTheFaultLabIsCaught() {
        EvaluationResult result = rules().get(4).evaluate(new ClassFileImporter().importClasses(
                lab.continuationreplay.faults.wrongway.up.CallsDown.class, lab.continuationreplay.faults.wrongway.down.CallsUp.class));
        assertTrue(result.hasViolation(), "two packages of the fault lab importing each other must violate the cycle rule");
    }

    /** Rule number {@code rule} judges the one planted class and names the class it must not reach. */
    private static void assertCaught(String planted, int rule, String reached, String why) throws Exception {
        EvaluationResult result = rules().get(rule).evaluate(new ClassFileImporter().importClasses(Class.forName(planted)));
        assertTrue(result.hasViolation(), why);
        assertTrue(result.getFailureReport().toString().contains(reached), result.getFailureReport().toString());
    }
}
