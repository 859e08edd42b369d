package lab.continuationreplay.server.frames;

import java.util.HashMap;
import java.util.Map;

/**
 * The requests that went past the gate to the SDK and have no reply on stdout yet, by id. When stdin ends and this is
 * empty, every request read has been answered, so the server may end at once instead of waiting for a quiet moment.
 * A request whose reply never comes (cancelled, or refused without its id) keeps it non-empty, and the server falls
 * back on the quiet rule: this only ever shortens the wait when the books balance exactly.
 */
public final class Answers {
    private final Map<Object, Integer> outstanding = new HashMap<>();
    private final Runnable changed;

    /** {@code changed} runs after each reply that settles a request, so a waiter can look again. */
    public Answers(Runnable changed) {
        this.changed = changed;
    }

    synchronized void passed(Object id) {
        outstanding.merge(id, 1, Integer::sum);
    }

    void answered(Object id) {
        synchronized (this) {
            Integer count = outstanding.get(id);
            if (count == null) {
                return;
            }
            if (count == 1) {
                outstanding.remove(id);
            } else {
                outstanding.put(id, count - 1);
            }
        }
        changed.run();
    }

    public synchronized boolean allAnswered() {
        return outstanding.isEmpty();
    }
}
