package lab.continuationreplay.cases;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The witnesses (seed spec §11): what happens without the guard, or when a client changes the identity. Duplicates
 * here are the expected result: evidence that the guard is what prevents them in the twelve cases.
 */
public enum Control {
    UNGUARDED_IDENTICAL_CONTINUATION("unguarded-identical-continuation", 2, c -> {
        CaseServer server = c.spawn("server", ServerSetup.alice(), ServerChoice.UNGUARDED);
        String token = server.roundOne(Control.UNGUARDED_TOOL, title());
        server.commit(Control.UNGUARDED_TOOL, title(), token, CaseSpec.BODY);
        server.commit(Control.UNGUARDED_TOOL, title(), token, CaseSpec.BODY);
    }),
    UNGUARDED_CHANGED_CONTINUATION("unguarded-changed-continuation", 2, c -> {
        CaseServer server = c.spawn("server", ServerSetup.alice(), ServerChoice.UNGUARDED);
        String token = server.roundOne(Control.UNGUARDED_TOOL, title());
        server.commit(Control.UNGUARDED_TOOL, title(), token, CaseSpec.BODY);
        server.commit(Control.UNGUARDED_TOOL, title(), token, "beta");
    }),
    UNGUARDED_BLIND_REPLAY_AFTER_CRASH("unguarded-blind-replay-after-crash", 2, c -> {
        CaseServer crash = c.spawn("crash", ServerSetup.alice().with(ServerSetup.Fault.DROP_AFTER_COMMIT), ServerChoice.UNGUARDED);
        String token = crash.roundOne(Control.UNGUARDED_TOOL, title());
        crash.commitLosingReply(Control.UNGUARDED_TOOL, title(), token, CaseSpec.BODY);
        c.spawn("restart", ServerSetup.alice(), ServerChoice.UNGUARDED).commit(Control.UNGUARDED_TOOL, title(), token, CaseSpec.BODY);
    }),
    GUARDED_UNSAFE_NEW_IDENTITY("guarded-unsafe-new-identity", 2, c -> {
        CaseServer server = c.spawn("server", ServerSetup.alice(), ServerChoice.JAVA);
        ObjectNode first = CaseArguments.of("control-a", "guarded-control", "atomic");
        server.commit(first, server.roundOne(first), CaseSpec.BODY);
        // the client "retries" under a new operation id: to the guard that is a new operation
        ObjectNode renamed = first.deepCopy().put("operation_id", "control-b");
        server.commit(renamed, server.roundOne(renamed), CaseSpec.BODY);
    });

    /** The unguarded server's tool: the same two rounds, no ledger. */
    public static final String UNGUARDED_TOOL = "create_issue";

    private final String folder;
    private final int expectedIssues;
    private final CaseScript script;

    Control(String folder, int expectedIssues, CaseScript script) {
        this.folder = folder;
        this.expectedIssues = expectedIssues;
        this.script = script;
    }

    /** The control's folder and its name in {@code controls.json}. */
    public String folder() {
        return folder;
    }

    /** The issue rows the control must leave: its witness. */
    public int expectedIssues() {
        return expectedIssues;
    }

    public CaseScript script() {
        return script;
    }

    private static ObjectNode title() {
        return JsonNodeFactory.instance.objectNode().put("title", "control");
    }
}
