package lab.continuationreplay.faults.crash;

import lab.continuationreplay.faults.FaultRecorder;
import lab.continuationreplay.faults.FaultSession;
import lab.continuationreplay.faults.ExperimentReport;
import lab.continuationreplay.faults.FaultExperiment;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import lab.continuationreplay.history.Reply;
import lab.continuationreplay.core.client.ToolClient;
import lab.continuationreplay.core.servers.ServerKind;
import lab.continuationreplay.core.servers.WireSettings;
import lab.continuationreplay.core.wire.TransportFailure;
import lab.continuationreplay.core.ledger.PostgresRunLedger;
import lab.continuationreplay.faults.common.FaultServers;
import lab.continuationreplay.store.postgres.EmbeddedPostgres;
import lab.continuationreplay.store.OperationIdentity;
import lab.continuationreplay.store.readback.EffectState;
import lab.continuationreplay.store.recovery.RecoveryState;
import lab.continuationreplay.vectors.ExactJson;

/**
 * Hundreds of operations while a killer sends SIGKILL at random moments; the driver restarts the server and settles
 * every operation whose reply was lost by status only, never by sending the write again. At the end the ledger's rows
 * alone must show one effect per applied operation and the stored result of every reported success. On the lab's own
 * PostgreSQL the database server is killed too ({@link DatabaseKiller}): a call that meets it gone gets a storage error,
 * which settles nothing (the session may have ended at COMMIT), so it is settled by status like a lost reply.
 */
public final class KillSoakExperiment implements FaultExperiment {
    private static final int ATTEMPTS = 40;
    /**
     * On PostgreSQL a status asked while the database restarts is refused until it is back (after a SIGKILL it replays
     * its WAL first), so asking goes on longer there: about 30 s at the longest pause.
     */
    private static final int ATTEMPTS_ON_POSTGRES = 160;

    @Override
    public String name() {
        return "kill-soak";
    }

    @Override
    public String title() {
        return "SIGKILL at random moments during hundreds of operations; lost replies settled by status only";
    }

    @Override
    public java.util.Set<lab.continuationreplay.core.servers.Transport> transports() {
        return java.util.Set.of(lab.continuationreplay.core.servers.Transport.STDIO, lab.continuationreplay.core.servers.Transport.HTTP);
    }

    @Override
    public Map<String, String> notApplicable(FaultSession session) {
        if (session.onPostgres() && embedded(session).isEmpty()) {
            return Map.of("database_kills", "the lab was given its PostgreSQL (WIRE_LEDGER_URL) and does not kill a server"
                    + " it did not start; the servers are still killed");
        }
        return Map.of();
    }

    private static java.util.Optional<EmbeddedPostgres> embedded(FaultSession session) {
        return session.ledger().postgres().flatMap(PostgresRunLedger::server);
    }

    @Override
    public ExperimentReport run(FaultSession session) throws Exception {
        ObjectNode figures = ExactJson.mapper().createObjectNode();
        for (ServerKind sdk : session.sdks()) {
            figures.set(sdk.label(), soak(session, sdk));
        }
        return new ExperimentReport(name(), title(), true, figures, List.of(), 0);
    }

    private ObjectNode soak(FaultSession session, ServerKind sdk) throws Exception {
        Path folder = session.folder(name(), session.scope(sdk));
        Path database = folder.resolve("store.sqlite3");
        WireSettings settings = WireSettings.matrix(database, "alice");
        int operations = session.size(40, 300);
        FaultRecorder history = session.history();
        String scope = session.scope(sdk);
        history.ledger(scope, database, "soak-");
        Server server = new Server(session, sdk, settings, folder);
        java.util.Optional<EmbeddedPostgres> databaseServer = embedded(session);
        try (Killer killer = new Killer(session.random(name() + sdk.label()), 50, 700, (what, how) -> history.kill(scope, what, how));
                DatabaseKiller databaseKiller = databaseServer.isEmpty() ? null
                        : new DatabaseKiller(databaseServer.get(), session.random(name() + sdk.label() + " database"), operations,
                                session.size(3, 12), how -> history.kill(scope, "database", how))) {
            Soak soak = new Soak(history, scope, database, server, killer, session.onPostgres() ? ATTEMPTS_ON_POSTGRES : ATTEMPTS,
                    session.onPostgres());
            for (int i = 0; i < operations; i++) {
                soak.operate(i, databaseKiller);
            }
            killer.aimAt(null);
            int starts = server.starts;
            server.close();
            ObjectNode sdkFigures = JsonNodeFactory.instance.objectNode();
            sdkFigures.put("operations", operations).put("kills", killer.serverKills() + killer.bridgeKills());
            if (sdk.reachesLedgerThroughBridge()) {
                sdkFigures.put("bridge_kills", killer.bridgeKills());
            }
            if (databaseKiller != null) {
                // the rows are read from the database: it must be up again first
                databaseKiller.awaitUp();
                sdkFigures.put("database_kills", databaseKiller.kills());
                history.expect(scope, "database kills that failed", "none",
                        databaseKiller.failures().isEmpty() ? "none" : String.join("; ", databaseKiller.failures()));
            } else if (session.onPostgres()) {
                sdkFigures.put("database_kills", "not applicable (see not_applicable)");
            }
            if (session.onPostgres()) {
                sdkFigures.put("storage_refusals", soak.storageRefusals);
            }
            server.awaitOrphans(killer.orphans());
            sdkFigures.put("starts", starts).put("lost_replies", soak.lostReplies)
                    .put("reconciled", soak.reconciledApplied + soak.reconciledAbsent)
                    .put("reconciled_applied", soak.reconciledApplied).put("reconciled_absent", soak.reconciledAbsent)
                    .put("reported_applied", soak.reported);
            return sdkFigures;
        } finally {
            server.close();
        }
    }

    /** The soak's operations one after another, each written down as it goes; the counts are figures, not verdicts. */
    private static final class Soak {
        private final FaultRecorder history;
        private final String scope;
        private final Path database;
        private final Server server;
        private final Killer killer;
        private final int attempts;
        private final boolean onPostgres;
        int reported;
        int lostReplies;
        int storageRefusals;
        int reconciledApplied;
        int reconciledAbsent;

        Soak(FaultRecorder history, String scope, Path database, Server server, Killer killer, int attempts, boolean onPostgres) {
            this.history = history;
            this.scope = scope;
            this.database = database;
            this.server = server;
            this.killer = killer;
            this.attempts = attempts;
            this.onPostgres = onPostgres;
        }

        /** Operation {@code i}: round one, its continuation under the killers, and a lost reply settled by status alone. */
        void operate(int i, DatabaseKiller databaseKiller) throws Exception {
            String operationId = "soak-" + i;
            ObjectNode arguments = ToolClient.arguments(operationId, "fault " + operationId, "atomic");
            String state = roundOne(server, killer, arguments, attempts);
            if (databaseKiller != null) {
                databaseKiller.maybeDuring(i);
            }
            Reply reply;
            history.sent(scope, database, operationId);
            try {
                reply = server.ready(killer).commit(arguments, state, "soak body " + i);
            } catch (TransportFailure lost) {
                reply = null;
                history.lost(scope, database, operationId, lost.getMessage());
            }
            if (reply != null && !reply.refused()) {
                reported++;
                history.succeeded(scope, database, operationId, reply.structured().path("result").asText());
                return;
            }
            boolean storage = reply != null && onPostgres && StorageScenario.isStorageError(reply);
            if (reply != null && !isMachineryFailure(reply) && !storage) {
                history.refused(scope, database, operationId, reply.refusalText());
                history.expect(scope, operationId + " refused only as a lost reply", "a bridge machinery failure or a storage error",
                        reply.refusalText());
                return;
            }
            if (reply != null) {
                // a bridge child killed mid-call, or the database gone: the client cannot know whether it committed
                history.lost(scope, database, operationId, reply.refusalText());
                storageRefusals += storage && !isMachineryFailure(reply) ? 1 : 0;
            }
            lostReplies++;
            RecoveryState settled = settle(server, killer, new OperationIdentity(operationId, "alice", WireSettings.BACKEND), attempts);
            if (settled.effect() == EffectState.APPLIED) {
                reconciledApplied++;
                reported++;
                history.succeeded(scope, database, operationId, settled.storedResult());
            } else {
                reconciledAbsent++;
            }
        }
    }

    /** Round one has no effect, so a lost round one is simply asked again. */
    private static String roundOne(Server server, Killer killer, ObjectNode arguments, int attempts) throws Exception {
        Exception last = null;
        for (int attempt = 0; attempt < attempts; attempt++) {
            try {
                return server.ready(killer).roundOne(arguments);
            } catch (TransportFailure | IllegalStateException e) {
                last = e;
                backOff(attempt);
            }
        }
        throw new IllegalStateException("round one never answered in " + attempts + " attempts", last);
    }

    /** Status only: asked again (on a restarted server if need be) until an authoritative answer arrives. */
    private static RecoveryState settle(Server server, Killer killer, OperationIdentity identity, int attempts) throws Exception {
        Exception last = null;
        for (int attempt = 0; attempt < attempts; attempt++) {
            try {
                return StatusRecovery.settle(server.ready(killer), identity, new TransportFailure("reply lost to a kill"));
            } catch (TransportFailure | IllegalStateException e) {
                last = e;
                backOff(attempt);
            }
        }
        throw new IllegalStateException("status of " + identity.operationId() + " never answered", last);
    }

    /**
     * A short pause before asking again. Over HTTP a killed server refuses connections at once, sooner than the JVM
     * notices that the process has ended; without a pause the attempts would all be spent in those milliseconds.
     */
    private static void backOff(int attempt) throws InterruptedException {
        Thread.sleep(Math.min(200, 10L * (attempt + 1)));
    }

    /** A bridge fixture's answer (TypeScript, Python, Go) when its bridge child died mid-call: the outcome is unknown, as for a lost reply. */
    private static boolean isMachineryFailure(Reply reply) {
        String text = reply.refusalText();
        return text != null && text.startsWith("bridge machinery failure");
    }

    /** The serving process, restarted whenever it is found dead; every start is a new transcript. */
    private static final class Server {
        private final FaultSession session;
        private final ServerKind sdk;
        private final WireSettings settings;
        private final Path folder;
        private ToolClient current;
        private int starts;

        Server(FaultSession session, ServerKind sdk, WireSettings settings, Path folder) {
            this.session = session;
            this.sdk = sdk;
            this.settings = settings;
            this.folder = folder;
        }

        ToolClient ready(Killer killer) throws Exception {
            if (current != null && current.isAlive()) {
                return current;
            }
            if (current != null) {
                current.close();
            }
            starts++;
            current = FaultServers.client(session, sdk, settings, folder, String.format("server-%03d", starts));
            current.process().request("tools/list", JsonNodeFactory.instance.objectNode());
            // A cold first call (class loading, opening the ledger) takes longer than most kill delays; warm the
            // status path first so the kills land among operations rather than always on the first one.
            current.status("soak-warm-up");
            killer.aimAt(current.process());
            return current;
        }

        /** A killed fixture's bridge child finishes on its own; wait for it before reading the final rows. */
        void awaitOrphans(List<ProcessHandle> orphans) throws InterruptedException {
            long deadline = System.nanoTime() + 20_000_000_000L;
            for (ProcessHandle orphan : orphans) {
                while (orphan.isAlive() && System.nanoTime() < deadline) {
                    Thread.sleep(20);
                }
                orphan.destroyForcibly();
            }
        }

        void close() {
            if (current != null) {
                current.close();
                current = null;
            }
        }
    }
}
