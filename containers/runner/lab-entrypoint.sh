#!/bin/sh
# The runner image's entrypoint: the lab CLI on the image's JDK (which also runs the Java server and the bridge) and
# Node.js (LAB_NODE, which runs the TypeScript fixture), from the lab staged under /opt/lab.
set -e
# The JVM's own logging goes to stderr, never to a stdout that may be a wire (vectors/rules/stdio-jvm-options.json).
exec "$JAVA_HOME/bin/java" -Xlog:disable -Xlog:all=warning:stderr -XX:+DisplayVMOutputToStderr ${LAB_JAVA_OPTS:-} \
  -Dlab.home=/opt/lab -jar /opt/lab/lab-cli/target/lab.jar "$@"
