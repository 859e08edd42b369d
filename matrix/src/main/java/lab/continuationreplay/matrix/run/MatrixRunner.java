package lab.continuationreplay.matrix.run;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.Map;
import lab.continuationreplay.cases.CaseId;
import lab.continuationreplay.cases.CaseSpec;
import lab.continuationreplay.cases.Cases;
import lab.continuationreplay.cases.Control;
import lab.continuationreplay.cases.HttpCaseId;
import lab.continuationreplay.cases.http.HttpCases;
import lab.continuationreplay.cases.ServerChoice;
import lab.continuationreplay.core.ledger.RunLedger;
import lab.continuationreplay.core.servers.BearerCredentials;
import lab.continuationreplay.core.servers.ServerKind;
import lab.continuationreplay.core.servers.Transport;
import lab.continuationreplay.history.Format;
import lab.continuationreplay.history.Layout;
import lab.continuationreplay.history.RunLog;
import lab.continuationreplay.vectors.ExactJson;

/**
 * Plays cases against one SDK into {@code out/<attempt>/} and writes history only: {@code provenance.json},
 * {@code requested.json} (before the first case starts), a {@code case-NN/} folder per case (transcripts, database,
 * processes.json) and a {@code history.jsonl} line per finished folder with its hashes and the time its script took
 * (a case's time is what the report draws; it is an observation, not a verdict). It judges nothing: every
 * verdict is the checker's, derived from this history. Never overwrites.
 */
public final class MatrixRunner {
    private MatrixRunner() {}

    /**
     * One attempt: {@code sdk} serves every process a script does not place elsewhere, over {@code transport}, into
     * {@code out/<name>/}; each played case is told to {@code progress}; each case is played on {@code slots} (cases of one
     * attempt, and of other attempts sharing the slots, then run side by side, each in its own folder, on its own
     * database, with its own processes in exactly the order its script gives); every case's servers use {@code ledger}.
     */
    public record Attempt(ServerKind sdk, Transport transport, String name, Path out, Path home, CaseProgress progress,
            Executor slots, RunLedger ledger) {
        /** Over stdio, one case at a time, on SQLite files, a line per case on {@code progress}. */
        public static Attempt of(ServerKind sdk, String name, Path out, Path home, PrintStream progress) {
            return new Attempt(sdk, Transport.STDIO, name, out, home, CaseProgress.lines(progress), Runnable::run, RunLedger.SQLITE);
        }
    }

    /**
     * Plays {@code cases} as {@code attempt} says. Over HTTP every server process listens on a free loopback port and
     * each principal is a bearer token minted for this attempt alone, kept outside the output folder and deleted at
     * the end. The history is written in case order, each line once its case and all before it are played.
     */
    public static void run(List<CaseSpec> cases, Attempt attempt) throws Exception {
        try (BearerCredentials credentials = attempt.transport() == Transport.HTTP ? new BearerCredentials() : null) {
            ObjectNode provenance = Provenance.of(attempt.sdk(), attempt.home()).put("transport", attempt.transport().label())
                    .put("ledger", attempt.ledger().label());
            CaseSetting setting = new CaseSetting(attempt.sdk(), attempt.home(), attempt.transport(), credentials, attempt.ledger());
            play(cases, attempt.name(), attempt.out(), provenance, attempt.progress(), attempt.slots(), attempt.ledger(), setting.stage());
        }
    }

    /** What playing one case left: the machinery error (or null) and how long it took. */
    private record Played(String machineryError, long nanos) {}

    /**
     * Plays {@code cases} into {@code out/<attemptName>/} on the processes {@code stage} starts (the replicas of
     * {@code lab replicas}, say), with {@code provenance} as the attempt's {@code provenance.json}.
     */
    public static void play(List<CaseSpec> cases, String attemptName, Path out, ObjectNode provenance, CaseProgress progress,
            Executor slots, RunLedger ledger, CaseStage stage) throws Exception {
        Path attempt = out.resolve(attemptName);
        if (Files.exists(attempt)) {
            throw new IllegalArgumentException(attempt + " already exists; an attempt folder is never overwritten");
        }
        Files.createDirectories(attempt);
        Files.writeString(attempt.resolve(Layout.PROVENANCE),
                ExactJson.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(provenance) + "\n");
        ObjectNode requested = Format.REQUESTED.document();
        requested.set("cases", ExactJson.mapper().valueToTree(cases.stream().map(c -> Map.of("id", c.id().number(),
                "name", c.id().seedName(), "expected", c.id().expected())).toList()));
        Files.writeString(attempt.resolve(Layout.REQUESTED), ExactJson.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(requested) + "\n");
        List<CompletableFuture<Played>> playing = new ArrayList<>();
        for (CaseSpec spec : cases) {
            Path folder = attempt.resolve(Layout.caseFolder(spec.id().number()));
            playing.add(CompletableFuture.supplyAsync(() -> {
                long started = System.nanoTime();
                try {
                    return new Played(CaseRun.execute(spec.script(), folder, ledger, stage).machineryError(), System.nanoTime() - started);
                } catch (Exception e) {
                    throw new CompletionException(e);
                }
            }, slots));
        }
        Exception failed = null;
        for (int i = 0; i < cases.size(); i++) {
            CaseSpec spec = cases.get(i);
            Played played;
            try {
                played = playing.get(i).join();
            } catch (CompletionException e) {
                // The others are left to finish, so that no case's processes outlive the run; the first failure is thrown.
                failed = failed != null ? failed : e.getCause() instanceof Exception cause ? cause : e;
                continue;
            }
            if (failed != null) {
                continue;
            }
            Path folder = attempt.resolve(Layout.caseFolder(spec.id().number()));
            long evidence = System.nanoTime();
            // The case's own time from its start to its sealed database, however many cases shared the machine meanwhile.
            RunLog.append(attempt.resolve(Layout.HISTORY), folder, played.machineryError(), Duration.ofNanos(played.nanos()));
            PhaseTimes.add(PhaseTimes.EVIDENCE, System.nanoTime() - evidence);
            progress.played(attemptName, String.format("case %-3s %s", spec.id().number(), spec.id().seedName()),
                    played.machineryError(), played.nanos());
        }
        if (failed != null) {
            throw failed;
        }
    }

    /**
     * Plays every control into {@code out/controls/<name>/}, each on the Java server or the unguarded one, on {@code
     * slots} and {@code ledger}, telling {@code progress} as each ends; the history in the controls' order.
     */
    public static void runControls(Path out, Path home, Executor slots, RunLedger ledger, CaseProgress progress) throws Exception {
        Path controls = Files.createDirectories(out.resolve(Layout.CONTROLS));
        List<CompletableFuture<Played>> playing = new ArrayList<>();
        for (Control control : Control.values()) {
            Path folder = controls.resolve(control.folder());
            playing.add(CompletableFuture.supplyAsync(() -> {
                long started = System.nanoTime();
                try {
                    Played played = new Played(CaseRun.execute(control.script(), folder, new CaseSetting(ServerKind.JAVA, home,
                            Transport.STDIO, null, ledger)).machineryError(), System.nanoTime() - started);
                    // Told as each ends: the controls' history is written in order only after all have ended.
                    progress.played(Layout.CONTROLS, "control " + control.folder(), played.machineryError(), played.nanos());
                    return played;
                } catch (Exception e) {
                    throw new CompletionException(e);
                }
            }, slots));
        }
        CompletableFuture.allOf(playing.toArray(CompletableFuture[]::new)).exceptionally(e -> null).join();
        for (int i = 0; i < playing.size(); i++) {
            Played played;
            try {
                played = playing.get(i).join();
            } catch (CompletionException e) {
                throw e.getCause() instanceof Exception cause ? cause : e;
            }
            RunLog.append(controls.resolve(Layout.HISTORY), controls.resolve(Control.values()[i].folder()), played.machineryError(),
                    Duration.ofNanos(played.nanos()));
        }
    }

    /** The attempt folder name of a cross-SDK cell, e.g. {@code cross-java-to-typescript}. */
    public static String crossCellName(ServerKind crashOn, ServerKind recoverOn) {
        return Layout.CROSS_PREFIX + crashOn.label() + "-to-" + recoverOn.label();
    }

    /** Case 09 with its commit on {@code crashOn}'s server and its recovery through {@code recoverOn}'s. */
    public static List<CaseSpec> crossCell(ServerKind crashOn, ServerKind recoverOn) {
        return List.of(Cases.acrossSdks(choice(crashOn), choice(recoverOn)));
    }

    /** The HTTP-only cases' attempt folder of {@code sdk}: {@code http-cases-java}. */
    public static String httpCasesName(ServerKind sdk) {
        return Layout.HTTP_CASES_PREFIX + sdk.label();
    }

    /** The cases {@code --cases} names, in case order: all twelve when {@code only} is null. */
    public static List<CaseSpec> cases(List<String> only) {
        refuseUnknown(only);
        return Cases.all().stream().filter(c -> only == null || only.contains(c.id().number())).toList();
    }

    /** The HTTP-only cases {@code --cases} names (h1..h3), in order: all of them when {@code only} is null. */
    public static List<CaseSpec> httpCases(List<String> only) {
        refuseUnknown(only);
        return HttpCases.all().stream().filter(c -> only == null || only.contains(c.id().number())).toList();
    }

    /** An id that is neither a frozen case nor an HTTP case is refused by name. */
    private static void refuseUnknown(List<String> only) {
        if (only == null) {
            return;
        }
        for (String id : only) {
            boolean http = java.util.Arrays.stream(HttpCaseId.values()).anyMatch(h -> h.number().equals(id));
            if (!http && java.util.Arrays.stream(CaseId.values()).noneMatch(c -> c.number().equals(id))) {
                throw new IllegalArgumentException("no case " + id + " (the frozen cases are 01..12, the HTTP cases h1..h3)");
            }
        }
    }

    private static ServerChoice choice(ServerKind kind) {
        return switch (kind) {
            case JAVA -> ServerChoice.JAVA;
            case TYPESCRIPT -> ServerChoice.TYPESCRIPT;
            case PYTHON -> ServerChoice.PYTHON;
            case GO -> ServerChoice.GO;
            case RUST -> ServerChoice.RUST;
            case UNGUARDED -> ServerChoice.UNGUARDED;
        };
    }
}
