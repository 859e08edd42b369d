package lab.continuationreplay.faults;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import lab.continuationreplay.history.Reply;
import lab.continuationreplay.core.client.ToolClient;
import lab.continuationreplay.core.servers.ServerKind;
import lab.continuationreplay.core.servers.WireSettings;
import lab.continuationreplay.core.wire.TransportFailure;
import lab.continuationreplay.faults.common.FaultLedger;
import lab.continuationreplay.faults.common.FaultServers;
import lab.continuationreplay.vectors.ExactJson;

/**
 * Storage faults under a running server: the write lock held by another process beyond the busy timeout, a full
 * disk, a read-only file system. Each must give a clear error on the wire, leave no row of the refused operation,
 * and the same continuation must commit once the fault clears, on the same server process.
 */
final class StorageFaultsExperiment implements FaultExperiment {
    private static final int TMPFS_KIB = 4096;

    /** Switches one fault on and off. */
    interface Fault {
        void on() throws Exception;

        void off() throws Exception;
    }

    @Override
    public String name() {
        return "storage";
    }

    @Override
    public String title() {
        return "lock held beyond the busy timeout, disk full, read-only: clear wire error, no partial rows, service resumes";
    }

    @Override
    public java.util.Map<String, String> notApplicable(FaultSession session) {
        return session.onPostgres() ? PostgresStorageFaults.notApplicable(session) : java.util.Map.of();
    }

    @Override
    public ExperimentReport run(FaultSession session) throws Exception {
        if (session.onPostgres()) {
            return PostgresStorageFaults.run(this, session);
        }
        ObjectNode figures = ExactJson.mapper().createObjectNode();
        List<String> findings = new ArrayList<>();
        for (ServerKind sdk : session.sdks()) {
            ObjectNode sdkFigures = figures.putObject(sdk.label());
            sdkFigures.put("lock_held", lockHeld(session, sdk, findings));
            sdkFigures.setAll(onTmpfs(session, sdk, findings));
        }
        return new ExperimentReport(name(), title(), findings.isEmpty(), figures, findings, 0);
    }

    private String lockHeld(FaultSession session, ServerKind sdk, List<String> findings) throws Exception {
        Path folder = session.folder(name(), sdk.label(), "lock-held");
        Path database = folder.resolve("store.sqlite3");
        try (ToolClient client = FaultServers.client(session, sdk, WireSettings.matrix(database, "alice"), folder, "server")) {
            Connection[] holder = new Connection[1];
            Fault lock = new Fault() {
                @Override
                public void on() throws Exception {
                    holder[0] = DriverManager.getConnection("jdbc:sqlite:" + database);
                    try (Statement statement = holder[0].createStatement()) {
                        statement.execute("BEGIN EXCLUSIVE");
                    }
                }

                @Override
                public void off() throws Exception {
                    try (Statement statement = holder[0].createStatement()) {
                        statement.execute("ROLLBACK");
                    }
                    holder[0].close();
                }
            };
            return scenario(session.ledger(), client, database, lock, sdk.label() + " lock held", findings);
        }
    }

    private ObjectNode onTmpfs(FaultSession session, ServerKind sdk, List<String> findings) throws Exception {
        ObjectNode figures = ExactJson.mapper().createObjectNode();
        Path folder = session.folder(name(), sdk.label(), "tmpfs");
        Tmpfs tmpfs;
        try {
            tmpfs = Tmpfs.mount(folder.resolve("mount"), TMPFS_KIB);
        } catch (Tmpfs.Unavailable e) {
            figures.put("disk_full", "skipped: " + e.getMessage());
            figures.put("read_only", "skipped: " + e.getMessage());
            return figures;
        }
        try {
            Path database = tmpfs.path().resolve("store.sqlite3");
            WireSettings settings = WireSettings.matrix(database, "alice");
            String readOnlyState;
            ObjectNode readOnlyArguments = ToolClient.arguments(sdk.label() + "-read-only-during", "fault " + sdk.label() + "-read-only-during", "atomic");
            try (ToolClient client = FaultServers.client(session, sdk, settings, folder, "server")) {
                Path filler = tmpfs.path().resolve("filler");
                Fault full = new Fault() {
                    @Override
                    public void on() throws Exception {
                        tmpfs.fill(filler);
                    }

                    @Override
                    public void off() throws Exception {
                        Files.delete(filler);
                    }
                };
                figures.put("disk_full", scenario(session.ledger(), client, database, full, sdk.label() + " disk full", findings));
                readOnlyState = client.roundOne(readOnlyArguments);
            }
            // Linux refuses to remount read-only while a process holds a file open for writing, so this fault
            // is on before the next server opens the ledger: it must serve, refuse the write, and recover in place.
            long issuesBefore = session.ledger().count(database, "issues");
            tmpfs.readOnly(true);
            try (ToolClient client = FaultServers.client(session, sdk, settings, folder, "server-read-only")) {
                figures.put("read_only", readOnlyScenario(session.ledger(), client, database, issuesBefore, tmpfs, readOnlyArguments, readOnlyState,
                        sdk.label() + " read-only", findings));
            } finally {
                tmpfs.readOnly(false);
            }
            for (String suffix : List.of("", "-wal", "-shm")) {
                Path file = tmpfs.path().resolve("store.sqlite3" + suffix);
                if (Files.exists(file)) {
                    Files.copy(file, folder.resolve("store.sqlite3" + suffix));
                }
            }
        } finally {
            tmpfs.close();
        }
        return figures;
    }

    /**
     * One committed operation first (the file exists and the server is warm), then round one of the next, the fault,
     * its continuation (must be refused with a storage error), the fault cleared, and the same continuation again
     * (must create the one effect).
     */
    static String scenario(FaultLedger ledger, ToolClient client, Path database, Fault fault, String label, List<String> findings)
            throws Exception {
        String tag = label.replaceAll("[^a-z]+", "-");
        ObjectNode warm = ToolClient.arguments(tag + "-before", "fault " + tag + "-before", "atomic");
        client.commit(warm, client.roundOne(warm), "before the fault");
        long issuesBefore = ledger.count(database, "issues");
        ObjectNode arguments = ToolClient.arguments(tag + "-during", "fault " + tag + "-during", "atomic");
        String state = client.roundOne(arguments);
        fault.on();
        return underFault(ledger, client, database, issuesBefore, fault, arguments, state, label, findings);
    }

    /** The server started on a read-only file system: the write is refused, and commits once it is writable again. */
    private static String readOnlyScenario(FaultLedger ledger, ToolClient client, Path database, long issuesBefore, Tmpfs tmpfs,
            ObjectNode arguments, String state, String label, List<String> findings) throws Exception {
        Fault alreadyOn = new Fault() {
            @Override
            public void on() {}

            @Override
            public void off() throws Exception {
                tmpfs.readOnly(false);
            }
        };
        return underFault(ledger, client, database, issuesBefore, alreadyOn, arguments, state, label, findings) + " on the same process";
    }

    /** The continuation while the fault is on, then the rows, then the same continuation once the fault is off. */
    static String underFault(FaultLedger ledger, ToolClient client, Path database, long issuesBefore, Fault fault, ObjectNode arguments,
            String state, String label, List<String> findings) throws Exception {
        long started = System.nanoTime();
        String refusal;
        try {
            Reply reply = client.commit(arguments, state, "during the fault");
            refusal = reply.refused() ? reply.refusalText() : null;
            if (refusal == null) {
                findings.add(label + ": the write succeeded despite the fault: " + reply.raw());
            } else if (!isStorageError(reply)) {
                findings.add(label + ": refused, but not as a storage error: " + refusal);
            }
        } catch (TransportFailure e) {
            refusal = null;
            findings.add(label + ": no answer on the wire: " + e.getMessage());
        } finally {
            fault.off();
        }
        long waitedMs = (System.nanoTime() - started) / 1_000_000;
        long issuesAfterFault = ledger.count(database, "issues");
        long rowsOfRefused = ledger.rows(database, "SELECT 1 FROM operations WHERE operation_id = ?",
                arguments.path("operation_id").asText()).size();
        if (refusal != null && (issuesAfterFault != issuesBefore || rowsOfRefused != 0)) {
            findings.add(label + ": a refused write left rows (issues " + issuesBefore + " -> " + issuesAfterFault
                    + ", ledger rows " + rowsOfRefused + ")");
        }
        String resumed;
        try {
            Reply again = client.commit(arguments, state, "during the fault");
            resumed = again.refused() ? "refused: " + again.refusalText()
                    : again.structured().path("replayed").asBoolean() ? "replayed" : "created";
        } catch (TransportFailure e) {
            resumed = "no answer: " + e.getMessage();
        }
        if (!resumed.equals(refusal == null ? "replayed" : "created")) {
            findings.add(label + ": after the fault cleared, the same continuation was " + resumed);
        }
        LedgerInvariants.of(ledger, database).violations().forEach(v -> findings.add(label + ": " + v));
        return (refusal == null ? "NOT refused" : "refused \"" + refusal + "\"") + " after " + waitedMs + " ms; no rows; then "
                + resumed;
    }

    /** Java answers a ledger failure as JSON-RPC -32603 "ledger unavailable"; the fixture as the bridge's storage_failure. */
    static boolean isStorageError(Reply reply) {
        if (reply.raw().has("error")) {
            return reply.raw().path("error").path("code").asInt() == -32603
                    && "ledger unavailable".equals(reply.raw().path("error").path("message").asText());
        }
        // The bridge answers an SQLite error as storage_failure; a bridge child that cannot open the ledger at all exits,
        // and the fixture reports the child's status and its last stderr line.
        String text = reply.refusalText();
        return text.startsWith("bridge_error: storage_failure")
                || text.startsWith("bridge machinery failure: ") && text.contains("cannot open the ledger");
    }
}
