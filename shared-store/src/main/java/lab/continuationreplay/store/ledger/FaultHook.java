package lab.continuationreplay.store.ledger;

/** Called when apply-once reaches a cut point; servers use it to halt the process there. */
@FunctionalInterface
public interface FaultHook {
    FaultHook NONE = point -> {};

    void reached(CutPoint point);
}
