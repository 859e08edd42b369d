package lab.continuationreplay.store.ledger;

import static lab.continuationreplay.store.ledger.LedgerTestSupport.BACKEND;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/** A fresh ledger file per test, opened before and closed after it. */
abstract class FreshLedger {
    @TempDir
    Path dir;
    Path file;
    IssueLedger ledger;

    @BeforeEach
    void open() throws Exception {
        file = dir.resolve("ledger.sqlite3");
        ledger = IssueLedger.open(file, BACKEND);
    }

    /** The read side of the ledger under test, as it is now (a test may reopen {@code ledger}). */
    LedgerQueries queries() {
        return new LedgerQueries(ledger);
    }

    @AfterEach
    void close() throws Exception {
        ledger.close();
    }
}
