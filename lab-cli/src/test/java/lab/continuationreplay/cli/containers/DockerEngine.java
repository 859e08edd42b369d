package lab.continuationreplay.cli.containers;

import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.testcontainers.DockerClientFactory;

/**
 * Whether the container tests run. With a Docker engine they run. Without one they are skipped on a developer
 * machine, with a message saying how to start one, but in CI ({@code CI=true}) they run and fail: a CI run whose
 * container tests were silently skipped must not pass. ({@code @Testcontainers(disabledWithoutDocker = true)} would
 * skip in CI too.)
 */
public final class DockerEngine implements ExecutionCondition, BeforeAllCallback {
    static final String HOW = "start one as docs/containers.md shows (or run .ci/run, which starts its own)";

    static boolean available() {
        return DockerClientFactory.instance().isDockerAvailable();
    }

    static boolean inCi() {
        return "true".equalsIgnoreCase(System.getenv("CI"));
    }

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        if (available()) {
            return ConditionEvaluationResult.enabled("a Docker engine answers");
        }
        if (inCi()) {
            return ConditionEvaluationResult.enabled("CI=true and no Docker engine answers: the container tests run and fail");
        }
        String reason = "no Docker engine answers; container tests skipped on this machine (in CI they fail instead); " + HOW;
        System.err.println("SKIPPED " + context.getDisplayName() + ": " + reason);
        return ConditionEvaluationResult.disabled(reason);
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        if (!available()) {
            throw new AssertionError("CI=true but no Docker engine answers, so the container tests cannot run; " + HOW);
        }
    }
}
