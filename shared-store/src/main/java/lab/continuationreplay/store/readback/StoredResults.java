package lab.continuationreplay.store.readback;

import java.util.List;
import java.util.Set;

/** The durable result texts the ledger writes, and whether one fits a state and its effect (seed spec §6.2). */
public final class StoredResults {
    private StoredResults() {}

    public static boolean matchesEffect(EffectState state, List<Long> ids, String result) {
        if (!state.hasEffect()) {
            return result == null;
        }
        if (ids.size() != 1 || result == null) {
            return false;
        }
        long id = ids.get(0);
        Set<String> allowed = state == EffectState.APPLIED
                ? Set.of("created " + id, "created " + id + " with watcher")
                : Set.of("partial " + id + "; watcher failed; rollback succeeded",
                        "partial " + id + "; watcher failed; rollback failed");
        return allowed.contains(result);
    }
}
