package lab.continuationreplay.store.readback;

import java.util.List;
import lab.continuationreplay.store.OperationIdentity;

/**
 * One look at the effect of an operation (seed spec §6.1). Only an authoritative observation bound to the exact
 * identity ({@code scopeBinding}) may settle an uncertain operation; diagnostic ones (by title, by body) never do.
 */
public record EffectObservation(
        OperationIdentity identity,
        String observedAt,
        boolean authoritative,
        String scope,
        EffectState state,
        List<Long> matchingIds,
        String detail,
        String storedResult,
        OperationIdentity scopeBinding) {

    public EffectObservation {
        matchingIds = List.copyOf(matchingIds);
        detail = detail == null ? "" : detail;
    }

    public int effects() {
        return matchingIds.size();
    }
}
