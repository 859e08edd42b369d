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
 * Every case folder of a run on its own schema of one PostgreSQL database: of a server started for the run
 * ({@link #embedded}), or of one the lab was given ({@link #given}: {@code WIRE_LEDGER_URL} and its credentials in
 * the lab's own environment). The servers get the schema's URL (no password in it), the role, and the password the
 * way the lab got it: the file's path (the embedded server's password is only ever in a file), or the variable.
 * Nothing of it reaches the evidence or a log. {@link #seal} writes the schema's rows as a logical dump
 * ({@link Format#LEDGER_ROWS}) and drops the schema.
 */
public final class PostgresRunLedger implements RunLedger, AutoCloseable {
    /** The ledger's tables, in the order of the dump. */
    static final List<String> TABLES = List.of("store_metadata", "issues", "operations", "operation_events", "watchers",
            "compensations");

    private final LedgerLocation.Postgres database;
    /** The URL the servers are given (a schema is added per case): the lab's own, unless they reach the server apart. */
    private final String serversUrl;
    private final Map<String, String> password;
    private final String description;
    private final EmbeddedPostgres server;
    private final String prefix;
    private final Map<Path, String> schemas = new ConcurrentHashMap<>();
    private final AtomicInteger count = new AtomicInteger();

    private PostgresRunLedger(LedgerLocation.Postgres database, Map<String, String> password, String description,
            EmbeddedPostgres server) {
        this(database, database.url(), password, description, server);
    }

    private PostgresRunLedger(LedgerLocation.Postgres database, String serversUrl, Map<String, String> password,
            String description, EmbeddedPostgres server) {
        this.database = database;
        this.serversUrl = LedgerLocation.Postgres.checkedUrl(serversUrl);
        this.password = password;
        this.description = description;
        this.server = server;
        // a given database may hold other runs' schemas: this run's names carry its own mark
        this.prefix = "ledger_" + Long.toString(System.currentTimeMillis(), 36) + "_";
    }

    /** Starts a PostgreSQL for the run (as an unprivileged account when the lab runs as root). */
    public static PostgresRunLedger embedded() throws IOException {
        EmbeddedPostgres server = EmbeddedPostgres.start(EXEC);
        return new PostgresRunLedger(server.database(),
                Map.of(TrustedEnvironment.LEDGER_PASSWORD_FILE, server.passwordFile().toString()),
                "embedded PostgreSQL 14 on 127.0.0.1:" + server.port() + " (running as " + server.account() + ")", server);
    }

    /**
     * The database the lab's environment names ({@code WIRE_LEDGER_URL}, {@code WIRE_LEDGER_USER}, and the password
     * in {@code WIRE_LEDGER_PASSWORD_FILE} or {@code WIRE_LEDGER_PASSWORD}); its role must be allowed to create
     * schemas. The URL must not choose a schema: the lab makes one per case folder.
     */
    public static PostgresRunLedger given(Map<String, String> labEnvironment) {
        TrustedEnvironment environment = new TrustedEnvironment(labEnvironment);
        if (!(environment.ledger() instanceof LedgerLocation.Postgres location)) {
            throw new IllegalArgumentException(TrustedEnvironment.LEDGER_URL + " is not set");
        }
        if (location.url().toLowerCase(java.util.Locale.ROOT).contains("currentschema=")) {
            throw new IllegalArgumentException(TrustedEnvironment.LEDGER_URL
                    + " must not choose a schema (currentSchema): the lab makes one per case folder");
        }
        String file = labEnvironment.get(TrustedEnvironment.LEDGER_PASSWORD_FILE);
        Map<String, String> password = file != null && !file.isEmpty()
                ? Map.of(TrustedEnvironment.LEDGER_PASSWORD_FILE, file)
                : Map.of(TrustedEnvironment.LEDGER_PASSWORD, labEnvironment.get(TrustedEnvironment.LEDGER_PASSWORD));
        return new PostgresRunLedger(location, password, "PostgreSQL at " + location.describe(), null);
    }

    /**
     * A database the lab reaches at {@code labSide} while the servers, elsewhere (in containers on another network),
     * reach it at {@code serversUrl} with the password in {@code serversPasswordFile}, a path where they run.
     */
    public static PostgresRunLedger reachedApart(LedgerLocation.Postgres labSide, String serversUrl, String serversPasswordFile,
            String description) {
        return new PostgresRunLedger(labSide, serversUrl, Map.of(TrustedEnvironment.LEDGER_PASSWORD_FILE, serversPasswordFile),
                description, null);
    }

    /** The lab's one place for child processes hands the launcher its programs (tests that start a server use it too). */
    public static final ProcessStarter EXEC = (command, environment, output) -> {
        Process process = Exec.command(command).onlyEnvironment(environment).withStdout(Exec.Io.appendTo(output))
                .withStderr(Exec.Io.INTO_STDOUT).start();
        process.getOutputStream().close();
        return process;
    };

    /** The server started for the run; empty when the lab was given its database and must not stop it. */
    public java.util.Optional<EmbeddedPostgres> server() {
        return java.util.Optional.ofNullable(server);
    }

    /** The database itself (no schema chosen), for the lab's own sessions around the ledgers. */
    public LedgerLocation.Postgres database() {
        return database;
    }

    /**
     * The variables that hand this database on to another lab process, which takes it as {@link #given} (the URL
     * without a schema, the role, the password file's path or the password variable): a fault run's own matrix, say.
     */
    public Map<String, String> handedOn() {
        Map<String, String> environment = new HashMap<>(password);
        environment.put(TrustedEnvironment.LEDGER_URL, database.url());
        environment.put(TrustedEnvironment.LEDGER_USER, database.user());
        return environment;
    }

    /** The schema handed out for {@code caseFolder} and not sealed yet, if any. */
    public java.util.Optional<String> schema(Path caseFolder) {
        return java.util.Optional.ofNullable(schemas.get(caseFolder.toAbsolutePath().normalize()));
    }

    /** What may be printed about the database: address and account or role, never the password. */
    public String describe() {
        return description;
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
                    schema = prefix + count.incrementAndGet();
                    try (Connection connection = database.connect(); Statement statement = connection.createStatement()) {
                        statement.execute("CREATE SCHEMA " + schema);
                    }
                    schemas.put(key, schema);
                }
            }
        }
        Map<String, String> environment = new HashMap<>();
        environment.put(TrustedEnvironment.SERVER_DB, null);
        environment.put(TrustedEnvironment.LEDGER_URL, serversUrl + (serversUrl.contains("?") ? "&" : "?")
                + "currentSchema=" + schema);
        environment.put(TrustedEnvironment.LEDGER_USER, database.user());
        environment.put(TrustedEnvironment.LEDGER_PASSWORD_FILE, null);
        environment.put(TrustedEnvironment.LEDGER_PASSWORD, null);
        environment.putAll(password);
        return environment;
    }

    /** Dumps the folder's schema (if any process opened one) into {@code store.rows.json}, then drops it. */
    @Override
    public void seal(Path caseFolder) throws SQLException, IOException {
        seal(caseFolder, caseFolder.resolve(Layout.LEDGER_DUMP));
    }

    /**
     * As {@link #seal(Path)}, the dump written to {@code dumpFile}: for a lab that keys schemas by something other than a
     * case folder (the fault lab keys them by the SQLite file a server would have had, several per folder).
     */
    public void seal(Path key, Path dumpFile) throws SQLException, IOException {
        String schema = schemas.remove(key.toAbsolutePath().normalize());
        if (schema == null) {
            return;
        }
        ObjectNode dump = Format.LEDGER_ROWS.document();
        dump.put("source", "postgresql");
        ObjectNode tables = dump.putObject("tables");
        try (Connection connection = database.connect()) {
            java.util.Set<String> present = tablesOf(connection, schema);
            for (String table : TABLES) {
                if (!present.contains(table)) {
                    continue; // no process got as far as creating the schema's tables
                }
                dumpTable(connection, schema, table, tables);
            }
            try (Statement statement = connection.createStatement()) {
                statement.execute("DROP SCHEMA " + schema + " CASCADE");
            }
        }
        Files.writeString(dumpFile,
                ExactJson.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(dump) + "\n");
    }

    /** The names of the tables the schema holds. */
    private static java.util.Set<String> tablesOf(Connection connection, String schema) throws SQLException {
        java.util.Set<String> present = new java.util.HashSet<>();
        try (PreparedStatement select = connection.prepareStatement(
                "SELECT tablename FROM pg_catalog.pg_tables WHERE schemaname = ?")) {
            select.setString(1, schema);
            try (ResultSet row = select.executeQuery()) {
                while (row.next()) {
                    present.add(row.getString(1));
                }
            }
        }
        return present;
    }

    /** Adds {@code table}'s columns and rows to {@code tables}, under the table's name. */
    private static void dumpTable(Connection connection, String schema, String table, ObjectNode tables)
            throws SQLException {
        // schema and table are the lab's own names (checked identifiers), never input
        try (Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery("SELECT * FROM " + schema + "." + table + " ORDER BY 1, 2")) {
            List<String[]> columns = columns(row.getMetaData());
            ObjectNode entry = tables.putObject(table);
            ArrayNode declared = entry.putArray("columns");
            columns.forEach(column -> declared.addArray().add(column[0]).add(column[1]));
            ArrayNode rows = entry.putArray("rows");
            while (row.next()) {
                ArrayNode values = rows.addArray();
                for (int c = 0; c < columns.size(); c++) {
                    addValue(values, row.getObject(c + 1), columns.get(c)[1]);
                }
            }
        }
    }

    /** Adds one value as its column's SQLite type says: a whole number, a real, or text. */
    private static void addValue(ArrayNode values, Object value, String type) {
        switch (type) {
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

    /** The result's columns in order, each as {name, SQLite type}: integer, real or text. */
    private static List<String[]> columns(java.sql.ResultSetMetaData meta) throws SQLException {
        List<String[]> columns = new ArrayList<>();
        for (int c = 1; c <= meta.getColumnCount(); c++) {
            String type = switch (meta.getColumnTypeName(c)) {
                case "int8", "int4", "int2" -> "integer";
                case "float8", "float4", "numeric" -> "real";
                default -> "text";
            };
            columns.add(new String[] {meta.getColumnName(c), type});
        }
        return columns;
    }

    /** Stops the embedded server (a given database is left as it is, without this run's schemas). */
    @Override
    public void close() {
        if (server != null) {
            server.close();
        }
    }
}
