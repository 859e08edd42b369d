package lab.continuationreplay.history;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.sqlite.SQLiteConfig;

/**
 * Reads a case's ledger evidence: a server's SQLite file directly and read-only, or the logical dump a PostgreSQL
 * ledger left ({@link Layout#LEDGER_DUMP}, {@link Format#LEDGER_ROWS}), loaded into a private in-memory SQLite
 * database so the same queries run on both. Either way as evidence: the matrix trusts the rows, not what a server
 * says about them. A ledger that is not there yet (no file, or a file whose schema its server has not created yet: a
 * server opens its ledger on demand, and creates the schema in one transaction) has no rows; a ledger with a schema
 * and a query on a table it lacks is an error.
 */
public final class StoreRows {
    private StoreRows() {}

    /**
     * {@code SELECT COUNT(*) FROM <table>}; {@code table} is the code's own text (a name, or a name with a
     * {@code WHERE} clause over constants). A count that depends on a value is {@link #rows} with a parameter.
     */
    public static long count(Path database, String table) throws SQLException {
        List<Map<String, Object>> rows = rows(database, "SELECT COUNT(*) AS n FROM " + table);
        return rows.isEmpty() ? 0 : ((Number) rows.get(0).get("n")).longValue();
    }

    /**
     * Every row of {@code query} as ordered column maps; none from a ledger that is not there yet. Values go in as
     * {@code parameters}, bound to the query's {@code ?} in order, never spliced into its text: an operation id is
     * whatever a client sent.
     */
    public static List<Map<String, Object>> rows(Path database, String query, Object... parameters)
            throws SQLException {
        List<Map<String, Object>> rows = new ArrayList<>();
        if (!Files.exists(database)) {
            return rows;
        }
        try (Connection connection = database.getFileName().toString().endsWith(".json") ? LedgerDump.load(database)
                : open(database)) {
            if (!hasSchema(connection)) {
                return rows;
            }
            return select(connection, query, parameters);
        }
    }

    /**
     * Every row of {@code query} on an open connection (a ledger file's, or a PostgreSQL schema's), as ordered column
     * maps; {@code parameters} bound to its {@code ?} in order, and exactly as many as it has.
     */
    public static List<Map<String, Object>> select(Connection connection, String query, Object... parameters)
            throws SQLException {
        List<Map<String, Object>> rows = new ArrayList<>();
        try (PreparedStatement select = connection.prepareStatement(query)) {
            // SQLite reads an unbound parameter as NULL, which matches no row: a forgotten value would pass a
            // "no rows" check silently, so the count must agree
            int expected = select.getParameterMetaData().getParameterCount();
            if (expected != parameters.length) {
                throw new SQLException("query has " + expected + " parameter(s), " + parameters.length + " given: " + query);
            }
            for (int i = 0; i < parameters.length; i++) {
                select.setObject(i + 1, parameters[i]);
            }
            try (ResultSet result = select.executeQuery()) {
                int columns = result.getMetaData().getColumnCount();
                while (result.next()) {
                    Map<String, Object> row = new LinkedHashMap<>();
                    for (int i = 1; i <= columns; i++) {
                        row.put(result.getMetaData().getColumnLabel(i), result.getObject(i));
                    }
                    rows.add(row);
                }
            }
        }
        return rows;
    }

    private static boolean hasSchema(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet tables = statement.executeQuery("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table'")) {
            return tables.next() && tables.getLong(1) > 0;
        }
    }

    private static Connection open(Path database) throws SQLException {
        SQLiteConfig config = new SQLiteConfig();
        config.setReadOnly(true);
        config.setBusyTimeout(5000);
        return DriverManager.getConnection("jdbc:sqlite:" + database.toAbsolutePath(), config.toProperties());
    }
}
