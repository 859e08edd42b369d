package lab.continuationreplay.store.ledger;

import java.sql.Connection;
import java.sql.SQLException;

/** The two follow-up steps of a partial operation, each run inside its own immediate transaction. */
public record PartialSteps(String watcher, WatcherStep watcherStep, CompensationStep compensationStep) {

    @FunctionalInterface
    public interface WatcherStep {
        void apply(Connection connection, long issueId, String watcher) throws SQLException;
    }

    @FunctionalInterface
    public interface CompensationStep {
        void apply(Connection connection, long issueId) throws SQLException;
    }

    /** The synthetic steps of case 12: the watcher fails, and so does the rollback that compensates it. */
    public static PartialSteps injectedFailures() {
        return new PartialSteps(
                "audit@example.test",
                (connection, issueId, watcher) -> {
                    throw new SyntheticWatcherFailure("injected watcher failure");
                },
                (connection, issueId) -> {
                    throw new SyntheticCompensationFailure("injected issue rollback failure");
                });
    }

    /** A watcher step that succeeds: inserts the watcher row. */
    public static WatcherStep insertWatcher() {
        return (connection, issueId, watcher) -> {
            try (var insert = connection.prepareStatement("INSERT INTO watchers(issue_id, name) VALUES (?, ?)")) {
                insert.setLong(1, issueId);
                insert.setString(2, watcher);
                insert.executeUpdate();
            }
        };
    }

    /** Thrown by the injected watcher step. */
    public static final class SyntheticWatcherFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public SyntheticWatcherFailure(String message) {
            super(message);
        }
    }

    /** Thrown by the injected compensation step. */
    public static final class SyntheticCompensationFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public SyntheticCompensationFailure(String message) {
            super(message);
        }
    }
}
