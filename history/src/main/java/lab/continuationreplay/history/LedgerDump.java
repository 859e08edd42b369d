package lab.continuationreplay.history;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The reader of {@link Format#LEDGER_ROWS}: loads a dump into a new in-memory SQLite database, table by table, so a
 * checker's SQL runs on it as on a ledger file. It trusts nothing in the dump beyond its shape: names must be plain
 * identifiers, types one of three, every row as long as its columns, every value of its column's type (or null).
 *
 * <pre>
 * {"format":"ledger-rows/1","source":"postgresql","tables":{"issues":{"columns":[["id","integer"],["title","text"],
 *   ["body","text"]],"rows":[[1,"Printer","out of toner"]]}, ...}}
 * </pre>
 */
public final class LedgerDump {
    private static final Pattern NAME = Pattern.compile("[a-z_][a-z0-9_]{0,62}");
    private static final Set<String> TYPES = Set.of("integer", "real", "text");

    private LedgerDump() {}

    /** A private in-memory database holding the dump's tables; the caller closes it. */
    public static Connection load(Path dump) throws SQLException {
        ObjectNode document;
        try {
            document = Format.LEDGER_ROWS.read(Files.readString(dump), dump.getFileName().toString());
        } catch (IOException | FormatException e) {
            throw new SQLException("cannot read the ledger dump " + dump + ": " + e.getMessage(), e);
        }
        Connection connection = DriverManager.getConnection("jdbc:sqlite::memory:");
        try {
            JsonNode tables = document.path("tables");
            if (!tables.isObject()) {
                throw new SQLException(dump + ": \"tables\" is not an object");
            }
            Iterator<Map.Entry<String, JsonNode>> each = tables.fields();
            while (each.hasNext()) {
                Map.Entry<String, JsonNode> table = each.next();
                load(connection, dump, table.getKey(), table.getValue());
            }
            return connection;
        } catch (SQLException | RuntimeException e) {
            connection.close();
            throw e;
        }
    }

    private static void load(Connection connection, Path dump, String table, JsonNode content) throws SQLException {
        String where = dump.getFileName() + ": table " + table;
        if (!NAME.matcher(table).matches()) {
            throw new SQLException(dump.getFileName() + ": a table name that is not a plain identifier");
        }
        JsonNode columns = content.path("columns");
        JsonNode rows = content.path("rows");
        if (!columns.isArray() || columns.isEmpty() || !rows.isArray()) {
            throw new SQLException(where + " has no columns or no rows array");
        }
        List<String> names = new ArrayList<>();
        List<String> types = new ArrayList<>();
        for (JsonNode column : columns) {
            String name = column.path(0).asText("");
            String type = column.path(1).asText("");
            if (column.size() != 2 || !NAME.matcher(name).matches() || !TYPES.contains(type) || names.contains(name)) {
                throw new SQLException(where + ": a column is not [plain name, integer|real|text] or is repeated");
            }
            names.add(name);
            types.add(type);
        }
        StringBuilder create = new StringBuilder("CREATE TABLE ").append(table).append('(');
        for (int i = 0; i < names.size(); i++) {
            create.append(i == 0 ? "" : ", ").append(names.get(i)).append(' ').append(types.get(i).toUpperCase());
        }
        try (Statement statement = connection.createStatement()) {
            statement.execute(create.append(')').toString());
        }
        String insert = "INSERT INTO " + table + " VALUES (" + "?, ".repeat(names.size() - 1) + "?)";
        try (PreparedStatement statement = connection.prepareStatement(insert)) {
            int index = 0;
            for (JsonNode row : rows) {
                index++;
                if (!row.isArray() || row.size() != names.size()) {
                    throw new SQLException(where + ": row " + index + " does not have " + names.size() + " values");
                }
                for (int c = 0; c < names.size(); c++) {
                    bind(statement, c + 1, types.get(c), row.get(c), where + ": row " + index + ", " + names.get(c));
                }
                statement.executeUpdate();
            }
        }
    }

    private static void bind(PreparedStatement statement, int index, String type, JsonNode value, String where)
            throws SQLException {
        if (value.isNull()) {
            statement.setNull(index, java.sql.Types.NULL);
        } else if (type.equals("integer") && value.isIntegralNumber() && value.canConvertToLong()) {
            statement.setLong(index, value.longValue());
        } else if (type.equals("real") && value.isNumber()) {
            statement.setDouble(index, value.doubleValue());
        } else if (type.equals("text") && value.isTextual()) {
            statement.setString(index, value.textValue());
        } else {
            throw new SQLException(where + " is not " + type);
        }
    }
}
