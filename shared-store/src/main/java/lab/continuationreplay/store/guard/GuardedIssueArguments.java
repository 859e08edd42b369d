package lab.continuationreplay.store.guard;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** The arguments of {@code create_guarded_issue}, validated, with {@code mode} defaulted to {@code atomic}. */
public record GuardedIssueArguments(String operationId, String title, Mode mode) {
    public static final int MAX_OPERATION_ID_LENGTH = 256;
    public static final int MAX_TEXT_LENGTH = 65_536;

    /** {@code atomic}: one transaction. {@code partial}: the multi-step model of case 12. */
    public enum Mode {
        ATOMIC("atomic"),
        PARTIAL("partial");

        private final String wire;

        Mode(String wire) {
            this.wire = wire;
        }

        public String wire() {
            return wire;
        }
    }

    /** Validates raw argument values as they arrive from a client; {@code mode} may be null (defaults to atomic). */
    public static GuardedIssueArguments of(Object operationId, Object title, Object mode) {
        if (!(operationId instanceof String id) || id.isEmpty() || !(title instanceof String text) || text.isEmpty()) {
            throw new InvalidApplicationRequest("operation_id and title are required");
        }
        if (id.length() > MAX_OPERATION_ID_LENGTH) {
            throw new InvalidApplicationRequest("operation_id is longer than " + MAX_OPERATION_ID_LENGTH + " characters");
        }
        if (text.length() > MAX_TEXT_LENGTH) {
            throw new InvalidApplicationRequest("title is longer than " + MAX_TEXT_LENGTH + " characters");
        }
        Mode chosen;
        if (mode == null) {
            chosen = Mode.ATOMIC;
        } else if ("atomic".equals(mode)) {
            chosen = Mode.ATOMIC;
        } else if ("partial".equals(mode)) {
            chosen = Mode.PARTIAL;
        } else {
            throw new InvalidApplicationRequest("mode must be 'atomic' or 'partial'");
        }
        return new GuardedIssueArguments(id, text, chosen);
    }

    /** The arguments as the fingerprint binds them (seed spec §2.10), mode after defaulting. */
    public ObjectNode fingerprintArguments() {
        ObjectNode arguments = JsonNodeFactory.instance.objectNode();
        arguments.put("operation_id", operationId);
        arguments.put("title", title);
        arguments.put("mode", mode.wire());
        return arguments;
    }
}
