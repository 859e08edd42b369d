package lab.continuationreplay.store.ledger;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Objects;

/**
 * Where a ledger lives: a SQLite file, or a PostgreSQL database reached by a JDBC URL. The password of the latter is
 * held apart from the URL and never printed: {@link #toString()} shows the URL, which is refused if it carries one.
 */
public sealed interface LedgerLocation {

    /** What a log line or an evidence file may say about this ledger: never a password. */
    String describe();

    /** Today's ledger and the default: one SQLite file. */
    record SqliteFile(Path path) implements LedgerLocation {
        public SqliteFile {
            Objects.requireNonNull(path, "path");
            path = path.toAbsolutePath();
        }

        @Override
        public String describe() {
            return "sqlite:" + path;
        }
    }

    /**
     * A PostgreSQL database: {@code url} is {@code jdbc:postgresql://host:port/database[?parameters]} without any
     * password, {@code user} the role, {@code password} the role's secret (at least 32 bytes, from the environment or
     * a file, never from the URL).
     */
    final class Postgres implements LedgerLocation {
        public static final String URL_PREFIX = "jdbc:postgresql://";
        public static final int MIN_PASSWORD_BYTES = 32;

        private final String url;
        private final String user;
        private final byte[] password;

        public Postgres(String url, String user, byte[] password) {
            this.url = checkedUrl(url);
            if (user == null || user.isEmpty()) {
                throw new IllegalArgumentException("the PostgreSQL ledger needs a user");
            }
            if (password == null || password.length < MIN_PASSWORD_BYTES) {
                throw new IllegalArgumentException("the PostgreSQL ledger's password must be at least "
                        + MIN_PASSWORD_BYTES + " bytes");
            }
            this.user = user;
            this.password = password.clone();
        }

        /**
         * A URL the ledger accepts: the PostgreSQL scheme, and no credential in it (a password in the URL would be
         * printed wherever the URL is). The message never repeats the URL.
         */
        public static String checkedUrl(String url) {
            if (url == null || !url.startsWith(URL_PREFIX) || url.length() == URL_PREFIX.length()) {
                throw new IllegalArgumentException("a ledger URL must start with " + URL_PREFIX + " and name a host");
            }
            String lower = url.toLowerCase(java.util.Locale.ROOT);
            String authority = url.substring(URL_PREFIX.length()).split("[/?]", 2)[0];
            if (authority.contains("@") || lower.contains("password=") || lower.contains("sslpassword=")) {
                throw new IllegalArgumentException("a ledger URL must not carry a password; give it in"
                        + " WIRE_LEDGER_PASSWORD_FILE or WIRE_LEDGER_PASSWORD");
            }
            return url;
        }

        public String url() {
            return url;
        }

        public String user() {
            return user;
        }

        /**
         * A plain session with this location's credentials (auto-commit on, no ledger settings): for a lab that
         * administers the database around the ledgers (schemas, dumps), never for the ledger's own writes.
         */
        public java.sql.Connection connect() throws java.sql.SQLException {
            java.util.Properties properties = new java.util.Properties();
            properties.setProperty("user", user);
            properties.setProperty("password", new String(password, java.nio.charset.StandardCharsets.UTF_8));
            properties.setProperty("connectTimeout", "10");
            return java.sql.DriverManager.getConnection(url, properties);
        }

        /** A copy of the password, for the driver's connection properties only. */
        byte[] password() {
            return password.clone();
        }

        @Override
        public String describe() {
            return url + " as " + user;
        }

        @Override
        public String toString() {
            return "Postgres[" + describe() + "]";
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Postgres that && url.equals(that.url) && user.equals(that.user)
                    && Arrays.equals(password, that.password);
        }

        @Override
        public int hashCode() {
            return Objects.hash(url, user);
        }
    }
}
