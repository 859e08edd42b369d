package lab.continuationreplay.matrix.cases;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import lab.continuationreplay.matrix.evidence.Artifacts;
import lab.continuationreplay.matrix.run.CaseContext;
import lab.continuationreplay.core.client.ToolClient;
import lab.continuationreplay.matrix.run.PhaseTimes;
import lab.continuationreplay.core.servers.ServerKind;
import lab.continuationreplay.core.servers.StoreRows;

/**
 * The witnesses (seed spec §11): what happens without the guard, or when a client changes the identity. Duplicates
 * here are the expected result, recorded as evidence that the guard is what prevents them in the twelve cases.
 */
public final class Controls {
    /** Each control, the issues it must leave, and its script. */
    record Control(String name, int expectedIssues, MatrixCase.Script script) {}

    private Controls() {}

    static Map<String, Control> all() {
        Map<String, Control> controls = new LinkedHashMap<>();
        ObjectNode title = JsonNodeFactory.instance.objectNode().put("title", "control");
        controls.put("unguarded-identical-continuation", new Control("unguarded-identical-continuation", 2, c -> {
            ToolClient server = c.spawn("server", c.alice(), ServerKind.UNGUARDED);
            String token = server.roundOneOf("create_issue", title);
            server.commit("create_issue", title, token, "alpha");
            server.commit("create_issue", title, token, "alpha");
        }));
        controls.put("unguarded-changed-continuation", new Control("unguarded-changed-continuation", 2, c -> {
            ToolClient server = c.spawn("server", c.alice(), ServerKind.UNGUARDED);
            String token = server.roundOneOf("create_issue", title);
            server.commit("create_issue", title, token, "alpha");
            server.commit("create_issue", title, token, "beta");
        }));
        controls.put("unguarded-blind-replay-after-crash", new Control("unguarded-blind-replay-after-crash", 2, c -> {
            ToolClient crash = c.spawn("crash", c.alice().withFault("drop-after-commit"), ServerKind.UNGUARDED);
            String token = crash.roundOneOf("create_issue", title);
            try {
                crash.commit("create_issue", title, token, "alpha");
            } catch (lab.continuationreplay.core.wire.TransportFailure lost) {
                crash.awaitExit();
            }
            c.spawn("restart", c.alice(), ServerKind.UNGUARDED).commit("create_issue", title, token, "alpha");
        }));
        controls.put("guarded-unsafe-new-identity", new Control("guarded-unsafe-new-identity", 2, c -> {
            ToolClient server = c.spawn("server", c.alice(), ServerKind.JAVA);
            ObjectNode first = MatrixCases.arguments("control", "atomic").put("operation_id", "control-a");
            server.commit(first, server.roundOne(first), "alpha");
            // the client "retries" under a new operation id: to the guard that is a new operation
            ObjectNode renamed = first.deepCopy().put("operation_id", "control-b");
            server.commit(renamed, server.roundOne(renamed), "alpha");
        }));
        return controls;
    }

    /** Runs every control into {@code out/controls/<name>/} and returns the witness record. */
    public static ObjectNode run(Path out, Path home) throws Exception {
        ObjectNode witnesses = JsonNodeFactory.instance.objectNode();
        boolean all = true;
        for (Control control : all().values()) {
            Path folder = out.resolve("controls").resolve(control.name());
            String error;
            long started = System.nanoTime();
            try (CaseContext context = new CaseContext(folder, ServerKind.JAVA, home)) {
                control.script().run(context);
                error = null;
            } catch (Exception e) {
                error = e.getClass().getSimpleName() + ": " + e.getMessage();
            } finally {
                PhaseTimes.add(PhaseTimes.CASE_SCRIPTS, System.nanoTime() - started);
            }
            Artifacts.seal(folder.resolve(CaseContext.DATABASE));
            long issues = StoreRows.count(folder.resolve(CaseContext.DATABASE), "issues");
            ObjectNode witness = witnesses.putObject(control.name());
            witness.put("issues", issues);
            witness.put("expected_issues", control.expectedIssues());
            witness.put("witnessed", error == null && issues == control.expectedIssues());
            if (error != null) {
                witness.put("machinery_error", error);
            }
            all &= witness.path("witnessed").asBoolean();
        }
        witnesses.put("all_witnessed", all);
        return witnesses;
    }
}
