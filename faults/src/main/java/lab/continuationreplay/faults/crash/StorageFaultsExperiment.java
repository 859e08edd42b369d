package lab.continuationreplay.faults.crash;

import lab.continuationreplay.faults.FaultSession;
import lab.continuationreplay.faults.ExperimentReport;
import lab.continuationreplay.faults.FaultExperiment;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import lab.continuationreplay.core.client.ToolClient;
import lab.continuationreplay.core.ledger.SqliteWriteLock;
import lab.continuationreplay.core.servers.ServerKind;
import lab.continuationreplay.core.servers.WireSettings;
import lab.continuationreplay.faults.common.FaultServers;
import lab.continuationreplay.vectors.ExactJson;

/**
 * Storage faults under a running server: the write lock held by another process beyond the busy timeout, a full
 * disk, a read-only file system. Each must give a clear error on the wire, leave no row of the refused operation,
 * and the same continuation must commit once the fault clears, on the same server process.
 */
public final class StorageFaultsExperiment implements FaultExperiment {
    private static final int TMPFS_KIB = 4096;

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
            return PostgresStorageFaults.run(name(), session);
        }
        ObjectNode figures = ExactJson.mapper().createObjectNode();
        for (ServerKind sdk : session.sdks()) {
            ObjectNode sdkFigures = figures.putObject(sdk.label());
            sdkFigures.put("lock_held", lockHeld(session, sdk));
            sdkFigures.setAll(onTmpfs(session, sdk));
        }
        return new ExperimentReport(name(), title(), true, figures, List.of(), 0);
    }

    private String lockHeld(FaultSession session, ServerKind sdk) throws Exception {
        Path folder = session.folder(name(), sdk.label(), "lock-held");
        Path database = folder.resolve("store.sqlite3");
        try (ToolClient client = FaultServers.client(session, sdk, WireSettings.matrix(database, "alice"), folder, "server")) {
            SqliteWriteLock[] holder = new SqliteWriteLock[1];
            StorageScenario.Fault lock = new StorageScenario.Fault() {
                @Override
                public void on() throws Exception {
                    holder[0] = SqliteWriteLock.take(database);
                }

                @Override
                public void off() throws Exception {
                    holder[0].close();
                }
            };
            return new StorageScenario(session.history(), sdk.label() + " lock held", session.ledger(), client, database, database)
                    .play(lock);
        }
    }

    private ObjectNode onTmpfs(FaultSession session, ServerKind sdk) throws Exception {
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
                StorageScenario.Fault full = StorageScenario.Fault.of(() -> tmpfs.fill(filler), () -> Files.delete(filler));
                figures.put("disk_full", new StorageScenario(session.history(), sdk.label() + " disk full", session.ledger(), client,
                        database, kept(folder)).play(full));
                readOnlyState = client.roundOne(readOnlyArguments);
            }
            // Linux refuses to remount read-only while a process holds a file open for writing, so this fault
            // is on before the next server opens the ledger: it must serve, refuse the write, and recover in place.
            long issuesBefore = session.ledger().count(database, "issues");
            tmpfs.readOnly(true);
            try (ToolClient client = FaultServers.client(session, sdk, settings, folder, "server-read-only")) {
                StorageScenario.Fault alreadyOn = StorageScenario.Fault.of(() -> { }, () -> tmpfs.readOnly(false));
                figures.put("read_only", new StorageScenario(session.history(), sdk.label() + " read-only", session.ledger(), client,
                        database, kept(folder)).underFault(issuesBefore, alreadyOn, readOnlyArguments, readOnlyState) + " on the same process");
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

    /** Where the tmpfs ledger is copied when the experiment ends (the mount goes): the file the history names. */
    private static Path kept(Path folder) {
        return folder.resolve("store.sqlite3");
    }
}
