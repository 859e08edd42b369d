package lab.continuationreplay.faults;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import lab.continuationreplay.core.servers.BearerCredentials;
import lab.continuationreplay.core.servers.ServerKind;
import lab.continuationreplay.core.servers.Transport;
import lab.continuationreplay.faults.FaultLedger;

/**
 * What every experiment of one {@code lab faults} run shares: the built repository, the output folder, the size
 * (quick or full), the seed that makes random choices reproducible, the SDKs under test, the transports chosen, the
 * one the current experiment runs over, the run's bearer tokens (HTTP only; null when no HTTP is chosen), and where
 * the servers keep their ledgers (SQLite files, or schemas of a PostgreSQL), and the history the experiment writes.
 */
public record FaultSession(Path home, Path out, boolean quick, long seed, List<ServerKind> sdks, PrintStream progress,
        List<Transport> transports, Transport transport, BearerCredentials credentials, FaultLedger ledger, FaultRecorder history) {
    public FaultSession {
        sdks = List.copyOf(sdks);
        transports = List.copyOf(transports);
        if (transports.contains(Transport.HTTP) && credentials == null) {
            throw new IllegalArgumentException("a fault run over HTTP needs bearer credentials");
        }
        java.util.Objects.requireNonNull(ledger, "ledger");
        java.util.Objects.requireNonNull(history, "history");
    }

    /** A session whose history goes to {@code out/fault-history.jsonl}. */
    public FaultSession(Path home, Path out, boolean quick, long seed, List<ServerKind> sdks, PrintStream progress,
            List<Transport> transports, Transport transport, BearerCredentials credentials, FaultLedger ledger) {
        this(home, out, quick, seed, sdks, progress, transports, transport, credentials, ledger, FaultRecorder.start(out));
    }

    /** A session whose servers keep their ledgers in SQLite files. */
    public FaultSession(Path home, Path out, boolean quick, long seed, List<ServerKind> sdks, PrintStream progress,
            List<Transport> transports, Transport transport, BearerCredentials credentials) {
        this(home, out, quick, seed, sdks, progress, transports, transport, credentials, FaultLedger.SQLITE);
    }

    /** A stdio-only session on SQLite files. */
    public FaultSession(Path home, Path out, boolean quick, long seed, List<ServerKind> sdks, PrintStream progress) {
        this(home, out, quick, seed, sdks, progress, List.of(Transport.STDIO), Transport.STDIO, null);
    }

    /** The same session with the experiments that follow running over {@code next}. */
    public FaultSession over(Transport next) {
        return new FaultSession(home, out, quick, seed, sdks, progress, transports, next, credentials, ledger, history);
    }

    /** The same session, its history lines under {@code experiment} over {@code transportLabel}. */
    public FaultSession recording(String experiment, String transportLabel) {
        return new FaultSession(home, out, quick, seed, sdks, progress, transports, transport, credentials, ledger,
                history.of(experiment, transportLabel));
    }

    /** True when the servers' ledgers are schemas of a PostgreSQL rather than SQLite files. */
    public boolean onPostgres() {
        return ledger.postgres().isPresent();
    }

    /**
     * The evidence folder name of one SDK over the current transport: {@code java} over stdio, {@code java-http} over
     * HTTP, so an experiment that runs over both keeps the two apart.
     */
    public String scope(ServerKind sdk) {
        return transport.attempt(sdk.label());
    }

    /** A fresh folder for one experiment's evidence (transcripts, databases), e.g. {@code OUT/kill-soak/java}. */
    public Path folder(String... parts) throws IOException {
        Path folder = out;
        for (String part : parts) {
            folder = folder.resolve(part);
        }
        return Files.createDirectories(folder);
    }

    /**
     * A random source for one experiment, derived from the run's seed and the experiment's name (over HTTP, the name
     * and the transport, so the two transports of one experiment do not draw the same choices).
     */
    public Random random(String experiment) {
        String key = transport == Transport.STDIO ? experiment : experiment + "@" + transport.label();
        return new Random(seed ^ (key.hashCode() * 0x9E3779B97F4A7C15L));
    }

    /** {@code full} in a full run, {@code quick} in a quick one. */
    public int size(int quickSize, int fullSize) {
        return quick ? quickSize : fullSize;
    }

    public void log(String line) {
        progress.println("faults: " + line);
        progress.flush();
    }
}
