package lab.continuationreplay.store.process;

import java.nio.file.Path;
import java.util.Map;
import lab.continuationreplay.store.config.TrustedEnvironment;
import lab.continuationreplay.store.ledger.LedgerLocation;
import lab.continuationreplay.store.postgres.TestPostgres;

/**
 * The two stores the child JVMs race on. A child finds its ledger the way a server does, from the trusted
 * environment: {@code WIRE_SERVER_DB}, or {@code WIRE_LEDGER_URL} with the user and the password file.
 */
enum ChildLedger {
    SQLITE, POSTGRES;

    record Target(LedgerLocation location, Map<String, String> environment) {}

    Target fresh(Path dir, String name) {
        if (this == SQLITE) {
            Path file = dir.resolve(name + ".sqlite3");
            return new Target(new LedgerLocation.SqliteFile(file), Map.of(TrustedEnvironment.SERVER_DB, file.toString()));
        }
        LedgerLocation.Postgres location = TestPostgres.freshLedger();
        return new Target(location, Map.of(TrustedEnvironment.LEDGER_URL, location.url(),
                TrustedEnvironment.LEDGER_USER, location.user(),
                TrustedEnvironment.LEDGER_PASSWORD_FILE, TestPostgres.server().passwordFile().toString()));
    }

}
