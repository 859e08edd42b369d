package lab.continuationreplay.conformance.suite;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import lab.continuationreplay.conformance.OfficialSuite;
import lab.continuationreplay.conformance.strict.StrictCheck;
import lab.continuationreplay.conformance.strict.StrictReport;
import lab.continuationreplay.conformance.strict.StrictTarget;
import lab.continuationreplay.conformance.strict.StrictTargetUnreachable;
import lab.continuationreplay.core.ledger.SqliteWriteLock;
import lab.continuationreplay.core.servers.BearerCredentials;
import lab.continuationreplay.core.exec.Exec;
import lab.continuationreplay.core.servers.ClientKind;
import lab.continuationreplay.core.servers.JavaCommand;
import lab.continuationreplay.core.servers.ServerKind;
import lab.continuationreplay.core.servers.WireSettings;
import lab.continuationreplay.core.wire.HttpServerProcess;
import lab.continuationreplay.core.wire.TransportFailure;
import lab.continuationreplay.history.Judgement;

/**
 * {@code lab conformance}: the pinned official suite against each lab server (started over HTTP with its conformance
 * profile) and each SDK client (through the lab's client driver), every scored scenario held against the SDK's expected
 * failures. Writes the suite's own files under OUT/server-SDK/suite and OUT/client-SDK/suite, next to the server's
 * logs and the driver's scripts and records; the reports are {@link ConformanceReport}'s.
 */
public final class ConformanceRun {
    /** The fixed principal of the conformance profile, which serves without a bearer token. */
    public static final String PROFILE_PRINCIPAL = "conformance";
    /** The profile's ledger in its folder: the server writes it, the strict run holds it for the cut checks. */
    static final String PROFILE_LEDGER = "store.sqlite3";
    /** The fixtures' request-state lifetime under the profile, real seconds (the suite's rounds take milliseconds). */
    static final int PROFILE_STATE_TTL_SECONDS = 60;
    /** Short enough that the strict expiry check waits little, long enough for every other check's rounds. */
    static final int STRICT_STATE_TTL_SECONDS = 3;
    private static final Duration SUITE_LIMIT = Duration.ofMinutes(10);

    public record Options(Path home, Path out, List<ServerKind> servers, List<ClientKind> clients, String adapterClassPath,
            PrintStream progress, Path expectedFailures) {
        public Options {
            servers = List.copyOf(servers);
            clients = List.copyOf(clients);
        }

        /** With the lab's own expected-failures files ({@value ExpectedFailures#FOLDER}). */
        public Options(Path home, Path out, List<ServerKind> servers, List<ClientKind> clients, String adapterClassPath,
                PrintStream progress) {
            this(home, out, servers, clients, adapterClassPath, progress, home.resolve(ExpectedFailures.FOLDER));
        }
    }

    /** One scored scenario for one server or client, judged. */
    public record Row(Side side, String sdk, String scenario, ScenarioOutcome outcome, Judgement judgement,
            Optional<ExpectedFailures.Entry> expected) {
        /** The folder of this server's or client's files in the output, e.g. {@code server-java}. */
        public String sdkFolder() {
            return side.label() + "-" + sdk;
        }
    }

    /** A scenario the suite ran but does not score (extensions, pending ones): reported, never judged. */
    public record Unscored(Side side, String sdk, String scenario, String why, ScenarioOutcome outcome) {}

    /** What ran, for how long, and how the suite itself exited, per server or client. */
    public record Subject(Side side, String sdk, long wallMillis, int suiteExit, String note) {}

    /** The lab's strict checks against one lab server's profile, or why they could not run. */
    public record StrictRun(String sdk, Optional<StrictReport> report, String problem) {
        public boolean failed() {
            return report.map(StrictReport::failed).orElse(true);
        }
    }

    public record Result(Requirements requirements, List<Subject> subjects, List<Row> rows, List<Unscored> unscored,
            List<StrictRun> strict) {
        public boolean ok() {
            return rows.stream().noneMatch(r -> r.judgement().failsTheRun()) && strict.stream().noneMatch(StrictRun::failed);
        }
    }

    private ConformanceRun() {}

    public static Result run(Options options) throws IOException, InterruptedException {
        OfficialSuite suite = new OfficialSuite(options.home());
        Requirements requirements = requirements(suite);
        Files.createDirectories(options.out());
        List<Subject> subjects = new ArrayList<>();
        List<Row> rows = new ArrayList<>();
        List<Unscored> unscored = new ArrayList<>();
        Map<String, ExpectedFailures> expected = new LinkedHashMap<>();
        for (ServerKind server : options.servers()) {
            expected.computeIfAbsent(server.label(), sdk -> readExpected(options, sdk, requirements));
        }
        for (ClientKind client : options.clients()) {
            expected.computeIfAbsent(client.label(), sdk -> readExpected(options, sdk, requirements));
        }
        List<StrictRun> strict = new ArrayList<>();
        for (ServerKind server : options.servers()) {
            options.progress().println("conformance: server " + server.label() + " (its conformance profile, over HTTP)");
            subjects.add(runServer(suite, options, server, requirements, expected.get(server.label()), rows, unscored));
            options.progress().println("conformance: strict checks on server " + server.label()
                    + " (the profile with two bearer tokens and a " + STRICT_STATE_TTL_SECONDS + " s state lifetime)");
            strict.add(runStrict(options, server));
        }
        for (ClientKind client : options.clients()) {
            options.progress().println("conformance: client " + client.label() + " (the lab's driver on the SDK client)");
            subjects.add(runClient(suite, options, client, requirements, expected.get(client.label()), rows));
        }
        return new Result(requirements, subjects, rows, unscored, strict);
    }

    /**
     * The strict checks against a second start of the server's profile, this time with a tokens file of two principals
     * (so a state of another principal can be tried) and a short fixture-state lifetime (so an expired one can be).
     * A fresh store and fresh keys, like the suite's start: the two runs share nothing.
     */
    private static StrictRun runStrict(Options options, ServerKind server) throws IOException {
        Path folder = options.out().resolve("strict-" + server.label());
        Files.createDirectories(folder);
        try (BearerCredentials credentials = new BearerCredentials()) {
            Map<String, String> env = profileEnvironment(options.home(), server, folder);
            env.put("WIRE_CONFORMANCE_STATE_TTL", Integer.toString(STRICT_STATE_TTL_SECONDS));
            env.put(BearerCredentials.TOKENS_FILE_VARIABLE, credentials.fileFor("alice", "bob").toString());
            HttpServerProcess process;
            try {
                process = startProfile(options, server, folder, env, credentials.principalsByToken());
            } catch (TransportFailure e) {
                return new StrictRun(server.label(), Optional.empty(), "the server did not start with its conformance profile: "
                        + e.getMessage());
            }
            try {
                StrictTarget target = StrictTarget.of(process.exchanges().endpoint().toString(), credentials.token("alice"),
                        credentials.token("bob"), (long) STRICT_STATE_TTL_SECONDS);
                Path ledger = folder.resolve(PROFILE_LEDGER);
                StrictReport report = StrictCheck.run(target, folder, options.progress(), Optional.of(() -> SqliteWriteLock.take(ledger)));
                return new StrictRun(server.label(), Optional.of(report), "");
            } catch (StrictTargetUnreachable e) {
                return new StrictRun(server.label(), Optional.empty(), e.getMessage());
            } finally {
                process.close();
            }
        }
    }

    static Requirements requirements(OfficialSuite suite) throws IOException, InterruptedException {
        Exec.Result listed = Exec.command(suite.command(List.of("list", "--requirements", OfficialSuite.REQUIREMENTS)))
                .withStderr(Exec.Io.INTO_STDOUT).run(Duration.ofMinutes(1));
        if (!listed.succeeded()) {
            throw new IllegalStateException("the conformance suite could not list " + OfficialSuite.REQUIREMENTS + " (exit "
                    + listed.exitStatus() + "): " + listed.output().strip());
        }
        return Requirements.parse(OfficialSuite.REQUIREMENTS, listed.output());
    }

    private static ExpectedFailures readExpected(Options options, String sdk, Requirements requirements) {
        try {
            return ExpectedFailures.read(options.home(), options.expectedFailures(), sdk, requirements);
        } catch (IOException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    private static Subject runServer(OfficialSuite suite, Options options, ServerKind server, Requirements requirements,
            ExpectedFailures expected, List<Row> rows, List<Unscored> unscored) throws IOException, InterruptedException {
        Path folder = options.out().resolve("server-" + server.label());
        Files.createDirectories(folder);
        long start = System.nanoTime();
        int exit;
        String note = "";
        HttpServerProcess process;
        try {
            process = startProfile(options, server, folder, profileEnvironment(options.home(), server, folder), Map.of());
        } catch (TransportFailure e) {
            note = "the server did not start with its conformance profile: " + e.getMessage();
            for (String scenario : requirements.server()) {
                rows.add(judge(Side.SERVER, server.label(), ScenarioOutcome.notRun(scenario, Side.SERVER, note), expected));
            }
            return new Subject(Side.SERVER, server.label(), millisSince(start), -1, note);
        }
        try {
            String url = process.exchanges().endpoint().toString();
            exit = runSuite(suite, folder, List.of("server", "--url", url, "--requirements", OfficialSuite.REQUIREMENTS, "-o",
                    folder.resolve("suite").toString()));
        } finally {
            process.close();
        }
        Map<String, ScenarioOutcome> outcomes = SuiteResults.read(folder.resolve("suite"), Side.SERVER);
        for (String scenario : requirements.server()) {
            ScenarioOutcome outcome = outcomes.getOrDefault(scenario,
                    ScenarioOutcome.notRun(scenario, Side.SERVER, "the suite wrote no checks for it (see server-" + server.label()
                            + "/suite.stderr.log)"));
            rows.add(judge(Side.SERVER, server.label(), outcome, expected));
        }
        for (Requirements.Unscored other : requirements.unscored()) {
            if (other.side() == Side.SERVER && outcomes.containsKey(other.scenario())) {
                unscored.add(new Unscored(Side.SERVER, server.label(), other.scenario(), other.why(), outcomes.get(other.scenario())));
            }
        }
        return new Subject(Side.SERVER, server.label(), millisSince(start), exit, note);
    }

    private static Subject runClient(OfficialSuite suite, Options options, ClientKind client, Requirements requirements,
            ExpectedFailures expected, List<Row> rows) throws IOException, InterruptedException {
        Path folder = options.out().resolve("client-" + client.label());
        Files.createDirectories(folder);
        long start = System.nanoTime();
        String adapter = adapterCommand(options, client, folder.resolve("driver"));
        int worst = 0;
        for (String scenario : requirements.client()) {
            Optional<ClientScenario> served = ClientScenario.of(scenario);
            if (served.isEmpty()) {
                ScenarioOutcome outcome = ScenarioOutcome.notRun(scenario, Side.CLIENT, "needs a step the client drivers do not have");
                rows.add(new Row(Side.CLIENT, client.label(), scenario, outcome, Judgement.NOT_SERVED, expected.find(Side.CLIENT, scenario)));
                continue;
            }
            int exit = runSuite(suite, folder, List.of("client", "--command", adapter, "--scenario", scenario, "--spec-version",
                    OfficialSuite.REQUIREMENTS, "-o", folder.resolve("suite").toString()));
            worst = Math.max(worst, exit);
        }
        Map<String, ScenarioOutcome> outcomes = SuiteResults.read(folder.resolve("suite"), Side.CLIENT);
        for (String scenario : requirements.client()) {
            if (ClientScenario.of(scenario).isPresent()) {
                ScenarioOutcome outcome = outcomes.getOrDefault(scenario, ScenarioOutcome.notRun(scenario, Side.CLIENT,
                        "the suite wrote no checks for it (see client-" + client.label() + "/suite.stderr.log)"));
                rows.add(judge(Side.CLIENT, client.label(), outcome, expected));
            }
        }
        return new Subject(Side.CLIENT, client.label(), millisSince(start), worst, "");
    }

    /** The server with {@code --conformance} over HTTP on a free port, its logs and transcript in {@code folder}. */
    private static HttpServerProcess startProfile(Options options, ServerKind server, Path folder, Map<String, String> env,
            Map<String, String> principalsByToken) throws IOException, TransportFailure {
        List<String> command = new ArrayList<>(server.command(options.home()));
        command.add("--conformance");
        return HttpServerProcess.start("server", command, env, folder.resolve("server.transcript.log"),
                folder.resolve("server.stdout.log"), folder.resolve("server.stderr.log"), Duration.ofSeconds(30), null,
                principalsByToken);
    }

    /**
     * The suite splits {@code --command} on spaces and appends the URL, so the adapter's command line must have none
     * inside its parts: a lab checked out under a path with a space is refused here, clearly, rather than mis-split.
     */
    static String adapterCommand(Options options, ClientKind client, Path driverFolder) {
        List<String> parts = new ArrayList<>(JavaCommand.onClassPath(options.adapterClassPath(), List.of(), SuiteClientMain.class));
        parts.addAll(List.of(client.label(), options.home().toString(), driverFolder.toString()));
        for (String part : parts) {
            if (part.isEmpty() || part.chars().anyMatch(Character::isWhitespace)) {
                throw new IllegalArgumentException("the conformance suite splits a client's command on spaces, and this one has a"
                        + " part with whitespace: '" + part + "'; run the lab from a path without spaces");
            }
        }
        return String.join(" ", parts);
    }

    private static int runSuite(OfficialSuite suite, Path folder, List<String> arguments) throws IOException, InterruptedException {
        Exec.Result result = Exec.command(suite.command(arguments)).withStderr(Exec.Io.appendTo(folder.resolve("suite.stderr.log")))
                .run(SUITE_LIMIT);
        Files.writeString(folder.resolve("suite.stdout.log"), result.output(), java.nio.file.StandardOpenOption.CREATE,
                java.nio.file.StandardOpenOption.APPEND);
        return result.timedOut() ? 124 : result.exitStatus();
    }

    /**
     * The profile's environment: the matrix's settings for a store in the folder, the principal the profile serves as,
     * and fresh keys for this run (a key written in the lab's sources would let anyone mint a state the server accepts).
     */
    static Map<String, String> profileEnvironment(Path home, ServerKind server, Path folder) {
        Map<String, String> env = new LinkedHashMap<>(WireSettings.matrix(folder.resolve(PROFILE_LEDGER), PROFILE_PRINCIPAL).environment());
        env.put("WIRE_STATE_KEY_HEX", randomHex());
        env.put("WIRE_FINGERPRINT_KEY_HEX", randomHex());
        env.put("WIRE_CONFORMANCE_STATE_TTL", Integer.toString(PROFILE_STATE_TTL_SECONDS));
        env.putAll(server.environment(home));
        return env;
    }

    private static String randomHex() {
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        return HexFormat.of().formatHex(key);
    }

    private static Row judge(Side side, String sdk, ScenarioOutcome outcome, ExpectedFailures expected) {
        Optional<ExpectedFailures.Entry> entry = expected.find(side, outcome.scenario());
        return new Row(side, sdk, outcome.scenario(), outcome, ExpectedFailures.judge(outcome.verdict(), entry), entry);
    }

    private static long millisSince(long start) {
        return (System.nanoTime() - start) / 1_000_000;
    }
}
