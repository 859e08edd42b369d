#!/bin/sh
# The runner image's entrypoint: the lab CLI on the image's JDK (which also runs the Java server and the bridge) and
# Node.js (LAB_NODE, which runs the TypeScript fixture), from the lab staged under /opt/lab.
set -e
exec "$JAVA_HOME/bin/java" ${LAB_JAVA_OPTS:-} -Dlab.home=/opt/lab -jar /opt/lab/matrix/target/lab.jar "$@"
