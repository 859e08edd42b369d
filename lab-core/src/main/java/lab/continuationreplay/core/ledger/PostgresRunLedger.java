package lab.continuationreplay.core.ledger;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import lab.continuationreplay.core.exec.Exec;
import lab.continuationreplay.history.Format;
import lab.continuationreplay.history.Layout;
import lab.continuationreplay.store.config.TrustedEnvironment;
import lab.continuationreplay.store.ledger.LedgerLocation;
import lab.continuationreplay.store.postgres.EmbeddedPostgres;
import lab.continuationreplay.store.postgres.ProcessStarter;
import lab.continuationreplay.vectors.ExactJson;

/**
 * Every case folder of a run on its own schema of one PostgreSQL server started for the run ({@link #embedded}).
 * The servers get the schema's URL (no password in it), the role, and the file holding the password; never the
 * password itself, and nothing of it reaches the evidence. {@link #seal} writes the schema's rows as a logical dump
 * ({@link Format#LEDGER_ROWS}) and drops the schema.
 */
public final class PostgresRunLedger implements RunLedger, AutoCloseable {
    /** The ledger's tables, in the order of the dump. */
    static final List<String> TABLES = List.of("store_metadata", "issues", "operations", "operation_events", "watchers",
            "compensations");

    private final EmbeddedPostgres server;
    private final Map<Path, String> schemas = new ConcurrentHashMap<>();
    private final AtomicInteger count = new AtomicInteger();

    private PostgresRunLedger(EmbeddedPostgres server) {
        this.server = server;
    }

    /** Starts a PostgreSQL for the run (as an unprivileged account when the lab runs as root). */
    public static PostgresRunLedger embedded() throws IOException {
        return new PostgresRunLedger(EmbeddedPostgres.start(EXEC));
    }

    /** The lab's one place for child processes hands the launcher its programs. */
    static final ProcessStarter EXEC = (command, environment, output) -> {
        Process process = Exec.command(command).onlyEnvironment(environment).withStdout(Exec.Io.appendTo(output))
                .withStderr(Exec.Io.INTO_STDOUT).start();
        process.getOutputStream().close();
        return process;
    };

    /** What may be printed about the server: address and account, never the password. */
    public String describe() {
        return "embedded PostgreSQL 14 on 127.0.0.1:" + server.port() + " (running as " + server.account() + ")";
    }

    @Override
    public String label() {
        return "postgres";
    }

    @Override
    public Map<String, String> environment(Path caseFolder) throws SQLException {
        Path key = caseFolder.toAbsolutePath().normalize();
        String schema = schemas.get(key);
        if (schema == null) {
            synchronized (this) {
                schema = schemas.get(key);
                if (schema == null) {
                    schema = "ledger_" + count.incrementAndGet();
                    server.createLedger(schema);
                    schemas.put(key, schema);
                }
            }
        }
        LedgerLocation.Postgres location = server.location(schema);
        Map<String, String> environment = new HashMap<>();
        environment.put(TrustedEnvironment.SERVER_DB, null);
        environment.put(TrustedEnvironment.LEDGER_URL, location.url());
        environment.put(TrustedEnvironment.LEDGER_USER, location.user());
        environment.put(TrustedEnvironment.LEDGER_PASSWORD_FILE, server.passwordFile().toString());
        return environment;
    }

    /** Dumps the folder's schema (if any process opened one) into {@code store.rows.json}, then drops it. */
    @Override
    public void seal(Path caseFolder) throws SQLException, IOException {
        String schema = schemas.remove(caseFolder.toAbsolutePath().normalize());
        if (schema == null) {
            return;
        }
        ObjectNode dump = Format.LEDGER_ROWS.document();
        dump.put("source", "postgresql");
        ObjectNode tables = dump.putObject("tables");
        try (Connection connection = server.connect(EmbeddedPostgres.DATABASE)) {
            connection.setReadOnly(true);
            for (String table : TABLES) {
                List<String[]> columns = columns(connection, schema, table);
                if (columns.isEmpty()) {
                    continue; // no process got as far as creating the schema's tables
                }
                ObjectNode entry = tables.putObject(table);
                ArrayNode declared = entry.putArray("columns");
                columns.forEach(column -> declared.addArray().add(column[0]).add(column[1]));
                ArrayNode rows = entry.putArray("rows");
                // schema and table are the lab's own names (checked identifiers), never input
                try (Statement statement = connection.createStatement();
                        ResultSet row = statement.executeQuery("SELECT * FROM " + schema + "." + table + " ORDER BY 1, 2")) {
                    while (row.next()) {
                        ArrayNode values = rows.addArray();
                        for (int c = 0; c < columns.size(); c++) {
                            Object value = row.getObject(c + 1);
                            switch (columns.get(c)[1]) {
                                case "integer" -> {
                                    if (value == null) {
                                        values.addNull();
                                    } else {
                                        values.add(((Number) value).longValue());
                                    }
                                }
                                case "real" -> {
                                    if (value == null) {
                                        values.addNull();
                                    } else {
                                        values.add(((Number) value).doubleValue());
                                    }
                                }
                                default -> values.add(value == null ? null : value.toString());
                            }
                        }
                    }
                }
            }
            try (Statement statement = connection.createStatement()) {
                connection.setReadOnly(false);
                statement.execute("DROP SCHEMA " + schema + " CASCADE");
            }
        }
        Files.writeString(caseFolder.resolve(Layout.LEDGER_DUMP),
                ExactJson.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(dump) + "\n");
    }

    /** The table's columns in order, each as {name, SQLite type}: integer, real or text. */
    private static List<String[]> columns(Connection connection, String schema, String table) throws SQLException {
        List<String[]> columns = new ArrayList<>();
        try (PreparedStatement select = connection.prepareStatement("""
                SELECT column_name, data_type FROM information_schema.columns
                WHERE table_schema = ? AND table_name = ? ORDER BY ordinal_position""")) {
            select.setString(1, schema);
            select.setString(2, table);
            try (ResultSet row = select.executeQuery()) {
                while (row.next()) {
                    String type = switch (row.getString(2)) {
                        case "bigint", "integer", "smallint" -> "integer";
                        case "double precision", "real", "numeric" -> "real";
                        default -> "text";
                    };
                    columns.add(new String[] {row.getString(1), type});
                }
            }
        }
        return columns;
    }

    @Override
    public void close() {
        server.close();
    }
}
