package lab.continuationreplay.matrix.cases;

import java.util.List;
import lab.continuationreplay.core.client.ToolClient;
import lab.continuationreplay.core.servers.ServerKind;

/**
 * Beyond the seed: case 09 across SDKs. The commit whose reply is lost happens on one SDK's server; the status-only
 * recovery goes through the other SDK's server on the same ledger. Same evidence, predicate and frozen outcome as
 * case 09: applied, the stored result, no redispatch.
 */
public final class CrossSdkCells {
    private CrossSdkCells() {}

    /** The attempt folder name of a cell, e.g. {@code cross-java-to-typescript}. */
    public static String attemptName(ServerKind crashOn, ServerKind recoverOn) {
        return "cross-" + crashOn.label() + "-to-" + recoverOn.label();
    }

    public static List<MatrixCase> cell(ServerKind crashOn, ServerKind recoverOn) {
        MatrixCase nine = MatrixCases.all().get(8);
        return List.of(new MatrixCase(nine.id(), nine.name(), nine.expected(), context -> {
            ToolClient crash = context.spawn("crash", context.alice().withFault("drop-after-commit"), crashOn);
            String token = crash.roundOne(MatrixCases.args("09"));
            MatrixCases.expectLostReply(crash, MatrixCases.args("09"), token);
            context.spawn("restart", context.alice(), recoverOn).status("case-09");
        }));
    }

    /** Reads a cell's attempt name back into its two kinds. */
    public static ServerKind[] kinds(String attemptName) {
        String[] parts = attemptName.substring("cross-".length()).split("-to-");
        return new ServerKind[] {ServerKind.fromLabel(parts[0]), ServerKind.fromLabel(parts[1])};
    }
}
