package lab.continuationreplay.clients;

/**
 * A step the script allows but the run cannot carry out, because an earlier step did not give what it needs (its
 * connect threw, its call_once answered something other than input_required). Recorded as the step's {@code threw};
 * the driver never invents a stand-in.
 */
public final class StepNotRunnableException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    public StepNotRunnableException(String message) {
        super(message);
    }
}
