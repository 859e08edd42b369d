package lab.continuationreplay.store.ledger;

import static lab.continuationreplay.store.ledger.LedgerTestSupport.BACKEND;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A fresh ledger per test, opened before and closed after it, once on each store: every test of a subclass runs
 * against a SQLite file and against a schema of the embedded PostgreSQL.
 */
@ParameterizedClass(name = "{0}")
@EnumSource(LedgerKind.class)
abstract class FreshLedger {
    @Parameter
    LedgerKind kind;
    @TempDir
    Path dir;
    LedgerLocation location;
    IssueLedger ledger;

    @BeforeEach
    void open() throws Exception {
        location = kind.fresh(dir);
        ledger = IssueLedger.open(location, BACKEND);
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
