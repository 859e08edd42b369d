package lab.continuationreplay.matrix.typescript;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;
import java.util.Properties;

/** The rows a run left, read straight from its SQLite file with plain JDBC (read-only), not through any server. */
final class FixtureRows {
    /** One ledger row: its state and effect. */
    record Operation(String state, Long effectId, String result) {}

    private FixtureRows() {}

    static long issues(Path database) throws SQLException {
        return count(database, "SELECT COUNT(*) FROM issues");
    }

    static long operations(Path database) throws SQLException {
        return count(database, "SELECT COUNT(*) FROM operations");
    }

    static Optional<Operation> operation(Path database, String operationId) throws SQLException {
        try (Connection connection = open(database);
                PreparedStatement select = connection.prepareStatement(
                        "SELECT state, effect_id, result FROM operations WHERE operation_id = ?")) {
            select.setString(1, operationId);
            try (ResultSet row = select.executeQuery()) {
                if (!row.next()) {
                    return Optional.empty();
                }
                long effect = row.getLong(2);
                return Optional.of(new Operation(row.getString(1), row.wasNull() ? null : effect, row.getString(3)));
            }
        }
    }

    private static long count(Path database, String sql) throws SQLException {
        if (!Files.exists(database)) {
            return 0;
        }
        try (Connection connection = open(database); PreparedStatement select = connection.prepareStatement(sql);
                ResultSet row = select.executeQuery()) {
            row.next();
            return row.getLong(1);
        }
    }

    private static Connection open(Path database) throws SQLException {
        Properties properties = new Properties();
        properties.setProperty("open_mode", "1"); // SQLITE_OPEN_READONLY
        properties.setProperty("busy_timeout", "5000");
        return DriverManager.getConnection("jdbc:sqlite:" + database.toAbsolutePath(), properties);
    }
}
