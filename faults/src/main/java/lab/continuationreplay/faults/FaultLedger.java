package lab.continuationreplay.faults;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import lab.continuationreplay.core.ledger.PostgresRunLedger;
import lab.continuationreplay.core.servers.WireSettings;
import lab.continuationreplay.history.StoreRows;

/**
 * Where the servers of one fault run keep their ledgers, and how the lab reads the rows back. An experiment names each
 * ledger by the SQLite file a server would use ({@code store.sqlite3}, {@code main.sqlite3}, …), so its code is the
 * same on both stores: with {@link #SQLITE} (the default) that file is the ledger, read read-only as evidence; on
 * PostgreSQL the path is only a key, each key gets a fresh schema of the run's database (so no two ledgers of the run
 * see each other), the rows are read from that schema through the lab's own session, and {@link #sealAll} leaves each
 * schema's rows beside the key as {@code <name>.rows.json} (then drops the schema). A ledger that is not there yet (no
 * file, no schema, or no tables yet) has no rows on either store.
 */
public final class FaultLedger implements AutoCloseable {
    /** Today's ledgers: one SQLite file per name. */
    public static final FaultLedger SQLITE = new FaultLedger(null);

    private final PostgresRunLedger postgres;
    private final Set<Path> keys = new LinkedHashSet<>();
    private Connection reader;

    private FaultLedger(PostgresRunLedger postgres) {
        this.postgres = postgres;
    }

    /** Every ledger of the run on its own schema of {@code run}'s database; the caller keeps and closes {@code run}. */
    public static FaultLedger on(PostgresRunLedger run) {
        return new FaultLedger(java.util.Objects.requireNonNull(run, "run"));
    }

    /** {@code sqlite} or {@code postgres}: the {@code --ledger} value. */
    public String label() {
        return postgres == null ? "sqlite" : "postgres";
    }

    /** The run's PostgreSQL, for the experiments that act on the database itself; empty on SQLite. */
    public Optional<PostgresRunLedger> postgres() {
        return Optional.ofNullable(postgres);
    }

    /**
     * The environment of a server whose ledger is {@code settings.database()}: the settings' own variables, and on
     * PostgreSQL the schema's URL, role and password file in place of {@code WIRE_SERVER_DB}.
     */
    public synchronized Map<String, String> environment(WireSettings settings) throws IOException {
        Map<String, String> environment = new LinkedHashMap<>(settings.environment());
        if (postgres == null) {
            return environment;
        }
        Map<String, String> overlay;
        try {
            overlay = postgres.environment(settings.database());
        } catch (SQLException e) {
            throw new IOException("cannot make the PostgreSQL schema of " + settings.database().getFileName() + ": "
                    + e.getMessage(), e);
        }
        keys.add(key(settings.database()));
        overlay.forEach((variable, value) -> {
            if (value == null) {
                environment.remove(variable);
            } else {
                environment.put(variable, value);
            }
        });
        return environment;
    }

    /** {@code SELECT COUNT(*)} of {@code table} (a name, or a name with a {@code WHERE} clause over constants). */
    public long count(Path database, String table) throws SQLException {
        List<Map<String, Object>> rows = rows(database, "SELECT COUNT(*) AS n FROM " + table);
        return rows.isEmpty() ? 0 : ((Number) rows.get(0).get("n")).longValue();
    }

    /**
     * Every row of {@code query} (plain SQL that SQLite and PostgreSQL both read) as ordered column maps, values bound
     * to its {@code ?} in order; none from a ledger that is not there yet.
     */
    public synchronized List<Map<String, Object>> rows(Path database, String query, Object... parameters)
            throws SQLException {
        if (postgres == null) {
            return StoreRows.rows(database, query, parameters);
        }
        Optional<String> schema = postgres.schema(key(database));
        if (schema.isEmpty()) {
            return new ArrayList<>();
        }
        try {
            return select(schema.get(), query, parameters);
        } catch (SQLException e) {
            if (!sessionLost(e)) {
                throw e;
            }
            // the database was restarted under the lab's own session (the kill soak does that): a read changes
            // nothing, so it simply runs again on a new session
            closeReader();
            return select(schema.get(), query, parameters);
        }
    }

    /**
     * Leaves every PostgreSQL ledger handed out so far as {@code <name>.rows.json} beside its key (the format
     * {@code StoreRows} and {@code lab verify} read) and drops its schema. Nothing to do on SQLite: the file is the
     * evidence.
     */
    public synchronized void sealAll() throws SQLException, IOException {
        if (postgres == null) {
            return;
        }
        for (Path key : List.copyOf(keys)) {
            postgres.seal(key, dumpOf(key));
            keys.remove(key);
        }
    }

    /** Where the rows of the ledger named {@code database} are left: {@code store.sqlite3} → {@code store.rows.json}. */
    public static Path dumpOf(Path database) {
        String name = database.getFileName().toString();
        int dot = name.lastIndexOf('.');
        return database.resolveSibling((dot > 0 ? name.substring(0, dot) : name) + ".rows.json");
    }

    /** Closes the lab's reading session (the run's database is its owner's to close). */
    @Override
    public synchronized void close() {
        closeReader();
    }

    private List<Map<String, Object>> select(String schema, String query, Object... parameters) throws SQLException {
        Connection connection = reader();
        try (PreparedStatement tables = connection.prepareStatement(
                "SELECT COUNT(*) FROM pg_catalog.pg_tables WHERE schemaname = ?")) {
            tables.setString(1, schema);
            try (ResultSet count = tables.executeQuery()) {
                if (!count.next() || count.getLong(1) == 0) {
                    return new ArrayList<>(); // no server has created the ledger's tables yet
                }
            }
        }
        try (Statement statement = connection.createStatement()) {
            // the schema is the lab's own name (PostgresRunLedger's prefix and a number), never input
            statement.execute("SET search_path TO " + schema);
        }
        return lab.continuationreplay.history.StoreRows.select(connection, query, parameters);
    }

    private Connection reader() throws SQLException {
        if (reader == null) {
            reader = postgres.database().connect();
        }
        return reader;
    }

    private void closeReader() {
        if (reader != null) {
            try {
                reader.close();
            } catch (SQLException ignored) {
                // a session the server ended is gone already
            }
            reader = null;
        }
    }

    private boolean sessionLost(SQLException failure) {
        String state = failure.getSQLState();
        if (state != null && (state.startsWith("08") || state.startsWith("57P"))) {
            return true;
        }
        try {
            return reader != null && reader.isClosed();
        } catch (SQLException e) {
            return true;
        }
    }

    private static Path key(Path database) {
        return database.toAbsolutePath().normalize();
    }
}
