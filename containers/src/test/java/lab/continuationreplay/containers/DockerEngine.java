package lab.continuationreplay.containers;

import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Whether this module's container tests run, decided as lab-cli's container tests decide it but through the product's
 * own {@link DockerCli#engineProblem()} (this module has no Testcontainers): with an engine they run; without one
 * they are skipped on a developer machine, and in CI ({@code CI=true}) they run and fail, so a CI run cannot pass
 * with its container tests silently skipped.
 */
public final class DockerEngine implements ExecutionCondition, BeforeAllCallback {
    static final String HOW = "start one as docs/containers.md shows (or run .ci/run, which starts its own)";

    static boolean inCi() {
        return "true".equalsIgnoreCase(System.getenv("CI"));
    }

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        String problem = DockerCli.engineProblem();
        if (problem == null) {
            return ConditionEvaluationResult.enabled("a Docker engine answers");
        }
        if (inCi()) {
            return ConditionEvaluationResult.enabled("CI=true and no Docker engine answers: the container tests run and fail");
        }
        String reason = "no Docker engine answers (" + problem + "); container tests skipped on this machine (in CI they fail instead); " + HOW;
        System.err.println("SKIPPED " + context.getDisplayName() + ": " + reason);
        return ConditionEvaluationResult.disabled(reason);
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        String problem = DockerCli.engineProblem();
        if (problem != null) {
            throw new AssertionError("CI=true but no Docker engine answers (" + problem + "), so the container tests cannot run; " + HOW);
        }
    }
}
