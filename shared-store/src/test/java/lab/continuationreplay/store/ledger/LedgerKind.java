package lab.continuationreplay.store.ledger;

import java.nio.file.Path;
import lab.continuationreplay.store.postgres.TestPostgres;

/** The two stores every ledger test runs on. */
public enum LedgerKind {
    SQLITE {
        @Override
        public LedgerLocation fresh(Path dir) {
            return new LedgerLocation.SqliteFile(dir.resolve("ledger.sqlite3"));
        }
    },
    POSTGRES {
        @Override
        public LedgerLocation fresh(Path dir) {
            return TestPostgres.freshLedger();
        }
    };

    /** A new, empty ledger of this kind ({@code dir} is a test's own temporary folder). */
    public abstract LedgerLocation fresh(Path dir);
}
