package lab.continuationreplay.store.config;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import lab.continuationreplay.store.guard.GuardConfig;
import lab.continuationreplay.store.guard.LabFault;
import lab.continuationreplay.store.ledger.LedgerLocation;
import lab.continuationreplay.vectors.FingerprintKey;

/**
 * The trusted configuration of a server or bridge process, read from its environment only (the {@code WIRE_*}
 * names of DESIGN.md), never from the wire. Each accessor validates on first use and throws
 * {@link IllegalArgumentException} with the seed's message; values are never put into a message.
 */
public final class TrustedEnvironment {
    public static final String SERVER_DB = "WIRE_SERVER_DB";
    public static final String BACKEND_ID = "WIRE_BACKEND_ID";
    public static final String PRINCIPAL = "WIRE_PRINCIPAL";
    public static final String CLOCK_EPOCH = "WIRE_CLOCK_EPOCH";
    public static final String AUTHORITY_TTL = "WIRE_AUTHORITY_TTL";
    public static final String REPLAY_RETENTION_TTL = "WIRE_REPLAY_RETENTION_TTL";
    public static final String REQUEST_STATE_TTL = "WIRE_REQUEST_STATE_TTL";
    public static final String STATE_KEY_HEX = "WIRE_STATE_KEY_HEX";
    public static final String FINGERPRINT_KEY_HEX = "WIRE_FINGERPRINT_KEY_HEX";
    public static final String FAULT = "WIRE_FAULT";
    /** A PostgreSQL ledger ({@code jdbc:postgresql://…}, no password in it); absent: the SQLite file of {@link #SERVER_DB}. */
    public static final String LEDGER_URL = "WIRE_LEDGER_URL";
    public static final String LEDGER_USER = "WIRE_LEDGER_USER";
    /** A file holding the ledger role's password (preferred: the secret is then in no process's environment). */
    public static final String LEDGER_PASSWORD_FILE = "WIRE_LEDGER_PASSWORD_FILE";
    public static final String LEDGER_PASSWORD = "WIRE_LEDGER_PASSWORD";
    /** Every variable that chooses or reaches the ledger: what a fixture passes on to its bridge. */
    public static final java.util.List<String> LEDGER_VARIABLES = java.util.List.of(SERVER_DB, LEDGER_URL, LEDGER_USER,
            LEDGER_PASSWORD_FILE, LEDGER_PASSWORD);

    private final Map<String, String> environment;

    public TrustedEnvironment(Map<String, String> environment) {
        this.environment = Map.copyOf(environment);
    }

    public static TrustedEnvironment fromProcess() {
        return new TrustedEnvironment(System.getenv());
    }

    public Path database() {
        return Path.of(required(SERVER_DB));
    }

    /**
     * The ledger this process uses: PostgreSQL when {@value #LEDGER_URL} is set (with {@value #LEDGER_USER} and a
     * password of at least 32 bytes from {@value #LEDGER_PASSWORD_FILE} or {@value #LEDGER_PASSWORD}, exactly one of
     * them), else the SQLite file {@value #SERVER_DB}. No message repeats a value: the URL could be mistyped around
     * a secret.
     */
    public LedgerLocation ledger() {
        String url = environment.get(LEDGER_URL);
        if (url == null || url.isEmpty()) {
            return new LedgerLocation.SqliteFile(database());
        }
        try {
            LedgerLocation.Postgres.checkedUrl(url);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(LEDGER_URL + ": " + e.getMessage());
        }
        String user = required(LEDGER_USER);
        return new LedgerLocation.Postgres(url, user, ledgerPassword());
    }

    private byte[] ledgerPassword() {
        String file = environment.get(LEDGER_PASSWORD_FILE);
        String inline = environment.get(LEDGER_PASSWORD);
        boolean fromFile = file != null && !file.isEmpty();
        boolean fromEnvironment = inline != null && !inline.isEmpty();
        if (fromFile == fromEnvironment) {
            throw new IllegalArgumentException(fromFile
                    ? "give the ledger password in " + LEDGER_PASSWORD_FILE + " or " + LEDGER_PASSWORD + ", not both"
                    : LEDGER_URL + " needs a password in " + LEDGER_PASSWORD_FILE + " or " + LEDGER_PASSWORD);
        }
        byte[] password;
        if (fromFile) {
            try {
                password = Files.readAllBytes(Path.of(file));
            } catch (IOException | java.nio.file.InvalidPathException e) {
                throw new IllegalArgumentException(LEDGER_PASSWORD_FILE + " cannot be read");
            }
            // a file written by echo or an editor ends in a newline that is not part of the secret
            int end = password.length;
            while (end > 0 && (password[end - 1] == '\n' || password[end - 1] == '\r')) {
                end--;
            }
            password = Arrays.copyOf(password, end);
        } else {
            password = inline.getBytes(StandardCharsets.UTF_8);
        }
        if (password.length < LedgerLocation.Postgres.MIN_PASSWORD_BYTES) {
            throw new IllegalArgumentException("the ledger password must contain at least "
                    + LedgerLocation.Postgres.MIN_PASSWORD_BYTES + " bytes");
        }
        return password;
    }

    public String backendId() {
        return required(BACKEND_ID);
    }

    public String principal() {
        return required(PRINCIPAL);
    }

    /** The injected clock, whole epoch seconds, frozen for the life of the process. */
    public long clockEpoch() {
        BigDecimal value = number(CLOCK_EPOCH);
        if (value.signum() < 0) {
            throw new IllegalArgumentException(CLOCK_EPOCH + " must not be negative");
        }
        return wholeSeconds(CLOCK_EPOCH, value);
    }

    public long authorityTtl() {
        return positiveSeconds(AUTHORITY_TTL);
    }

    public long replayRetentionTtl() {
        return positiveSeconds(REPLAY_RETENTION_TTL);
    }

    public long requestStateTtl() {
        return positiveSeconds(REQUEST_STATE_TTL);
    }

    /** The secret that seals {@code requestState} (at least 32 bytes). */
    public byte[] stateKey() {
        return keyBytes(STATE_KEY_HEX);
    }

    public FingerprintKey fingerprintKey() {
        return FingerprintKey.of(keyBytes(FINGERPRINT_KEY_HEX));
    }

    public Optional<LabFault> fault() {
        return LabFault.parse(environment.get(FAULT));
    }

    /** A guard configuration that mints (servers) or not (the bridge, whose client mints). */
    public GuardConfig guardConfig(boolean mints) {
        return mints
                ? new GuardConfig(principal(), backendId(), clockEpoch(), authorityTtl(), replayRetentionTtl(), fingerprintKey())
                : GuardConfig.withoutMinting(principal(), backendId(), clockEpoch(), fingerprintKey());
    }

    private String required(String name) {
        String value = environment.get(name);
        if (value == null || value.isEmpty()) {
            throw new IllegalArgumentException(name + " is required");
        }
        return value;
    }

    private BigDecimal number(String name) {
        String text = required(name).trim();
        if (text.equalsIgnoreCase("nan") || text.toLowerCase().contains("inf")) {
            throw new IllegalArgumentException(name + " must be finite");
        }
        try {
            return new BigDecimal(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be numeric");
        }
    }

    private long positiveSeconds(String name) {
        BigDecimal value = number(name);
        if (value.signum() <= 0) {
            throw new IllegalArgumentException(name + " must be positive");
        }
        return wholeSeconds(name, value);
    }

    /** Whole seconds only: state times are bound into the fingerprint as canonical JSON, which admits integers only. */
    private static long wholeSeconds(String name, BigDecimal value) {
        if (value.scale() > 0 && value.stripTrailingZeros().scale() > 0) {
            throw new IllegalArgumentException(name + " must be a whole number of seconds");
        }
        if (value.compareTo(BigDecimal.valueOf(9007199254740991L)) > 0) {
            throw new IllegalArgumentException(name + " is too large");
        }
        return value.longValueExact();
    }

    private byte[] keyBytes(String name) {
        String hex = required(name);
        if (hex.length() % 2 != 0 || !hex.chars().allMatch(c -> Character.digit(c, 16) >= 0 && c < 128)) {
            throw new IllegalArgumentException(name + " must be hexadecimal");
        }
        byte[] bytes = HexFormat.of().parseHex(hex);
        if (bytes.length < FingerprintKey.MIN_BYTES) {
            throw new IllegalArgumentException(name + " must contain at least " + FingerprintKey.MIN_BYTES + " bytes");
        }
        return bytes;
    }
}
