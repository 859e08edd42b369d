package lab.continuationreplay.cli.containers;

import com.github.dockerjava.api.DockerClient;
import java.time.Duration;
import org.testcontainers.containers.startupcheck.StartupCheckStrategy;
import org.testcontainers.utility.DockerStatus;

/**
 * A one-shot container is "started" once it has exited, whatever its status: the test reads the status and the
 * evidence afterwards and says what failed, rather than getting a launch exception without the evidence.
 */
final class UntilExit extends StartupCheckStrategy {
    UntilExit(Duration timeout) {
        withTimeout(timeout);
    }

    @Override
    public StartupStatus checkStartupState(DockerClient dockerClient, String containerId) {
        return DockerStatus.isContainerStopped(getCurrentState(dockerClient, containerId)) ? StartupStatus.SUCCESSFUL
                : StartupStatus.NOT_YET_KNOWN;
    }
}
