package lab.continuationreplay.matrix.servers;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.sqlite.SQLiteConfig;

/**
 * Reads a server's SQLite file directly and read-only, as evidence: the matrix trusts the rows, not what a server
 * says about them.
 */
public final class StoreRows {
    private StoreRows() {}

    public static long count(Path database, String table) throws SQLException {
        if (!Files.exists(database)) {
            return 0;
        }
        try (Connection connection = open(database); Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery("SELECT COUNT(*) FROM " + table)) {
            return row.next() ? row.getLong(1) : 0;
        }
    }

    /** Every row of {@code query} as ordered column maps. */
    public static List<Map<String, Object>> rows(Path database, String query) throws SQLException {
        List<Map<String, Object>> rows = new ArrayList<>();
        try (Connection connection = open(database); Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery(query)) {
            int columns = result.getMetaData().getColumnCount();
            while (result.next()) {
                Map<String, Object> row = new LinkedHashMap<>();
                for (int i = 1; i <= columns; i++) {
                    row.put(result.getMetaData().getColumnLabel(i), result.getObject(i));
                }
                rows.add(row);
            }
        }
        return rows;
    }

    private static Connection open(Path database) throws SQLException {
        SQLiteConfig config = new SQLiteConfig();
        config.setReadOnly(true);
        config.setBusyTimeout(5000);
        return DriverManager.getConnection("jdbc:sqlite:" + database.toAbsolutePath(), config.toProperties());
    }
}
