package lab.continuationreplay.cli.containers;

import org.testcontainers.images.ImagePullPolicy;
import org.testcontainers.utility.DockerImageName;

/**
 * The container tests' pull policy (named in {@code testcontainers.properties}): never. Images come from
 * {@code containers/build-images.sh}; a missing one fails in milliseconds with "No such image" rather than retrying a
 * pull against an unreachable registry for more than ten minutes.
 */
public final class NeverPull implements ImagePullPolicy {
    @Override
    public boolean shouldPull(DockerImageName imageName) {
        return false;
    }
}
