package lab.continuationreplay.store.ledger;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import lab.continuationreplay.store.OperationIdentity;

/**
 * Plain-JDBC access to a ledger (a SQLite file or a PostgreSQL schema), independent of {@link IssueLedger}, for
 * checking what is really stored. Whole numbers come back as {@code Integer} when they fit on both stores (SQLite's
 * driver answers small integers so, PostgreSQL's BIGINT as {@code Long}), so one expectation serves both.
 */
final class LedgerTestSupport {
    static final String BACKEND = "sqlite:test";
    static final String ISSUED_WALL_CLOCK = "\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{6}\\+00:00";

    private LedgerTestSupport() {}

    static OperationIdentity id(String operationId) {
        return new OperationIdentity(operationId, "alice", BACKEND);
    }

    static Connection jdbc(Path file) throws SQLException {
        return DriverManager.getConnection("jdbc:sqlite:" + file.toAbsolutePath());
    }

    static Connection jdbc(LedgerLocation location) throws SQLException {
        if (location instanceof LedgerLocation.Postgres postgres) {
            return DriverManager.getConnection(postgres.url(), postgres.user(),
                    new String(postgres.password(), java.nio.charset.StandardCharsets.UTF_8));
        }
        return jdbc(((LedgerLocation.SqliteFile) location).path());
    }

    static List<Map<String, Object>> rows(Path file, String sql, Object... parameters) throws SQLException {
        return rows(new LedgerLocation.SqliteFile(file), sql, parameters);
    }

    static long count(Path file, String table) throws SQLException {
        return count(new LedgerLocation.SqliteFile(file), table);
    }

    static List<Long> tableCounts(Path file) throws SQLException {
        return tableCounts(new LedgerLocation.SqliteFile(file));
    }

    /** All rows of a query, each as column label → value (as returned by getObject, whole numbers narrowed). */
    static List<Map<String, Object>> rows(LedgerLocation location, String sql, Object... parameters) throws SQLException {
        try (Connection connection = jdbc(location); PreparedStatement select = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                select.setObject(i + 1, parameters[i]);
            }
            List<Map<String, Object>> rows = new ArrayList<>();
            try (ResultSet row = select.executeQuery()) {
                ResultSetMetaData meta = row.getMetaData();
                while (row.next()) {
                    Map<String, Object> values = new LinkedHashMap<>();
                    for (int c = 1; c <= meta.getColumnCount(); c++) {
                        Object value = row.getObject(c);
                        if (value instanceof Long whole && whole == whole.intValue()) {
                            value = whole.intValue();
                        }
                        values.put(meta.getColumnLabel(c), value);
                    }
                    rows.add(values);
                }
            }
            return rows;
        }
    }

    static long count(LedgerLocation location, String table) throws SQLException {
        return ((Number) rows(location, "SELECT COUNT(*) AS n FROM " + table).get(0).get("n")).longValue();
    }

    /** Row counts of every ledger table, in a fixed order, for "nothing changed" assertions. */
    static List<Long> tableCounts(LedgerLocation location) throws SQLException {
        List<Long> counts = new ArrayList<>();
        for (String table : List.of("issues", "operations", "operation_events", "watchers", "compensations")) {
            counts.add(count(location, table));
        }
        return counts;
    }

    /** A fault hook that throws at exactly one cut point. */
    static FaultHook failAt(CutPoint cut) {
        return point -> {
            if (point == cut) {
                throw new IllegalStateException("cut at " + point.label());
            }
        };
    }
}
