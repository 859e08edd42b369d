#!/bin/sh
# The runner image's entrypoint: the lab CLI on the image's JDK (which also runs the Java server and the bridge) and
# Node.js (LAB_NODE, which runs the TypeScript fixture), from the lab staged under /opt/lab.
set -e
# C1 and the serial collector for every command but bench and server, as ./lab gives them: a matrix shares the
# container's cores with the servers it starts (LauncherOptionsTest holds the two launchers to one list).
case "${1:-}" in
  bench|server) short_lived="" ;;
  *) short_lived="-XX:TieredStopAtLevel=1 -XX:+UseSerialGC" ;;
esac
# The JVM's own logging goes to stderr, never to a stdout that may be a wire (vectors/rules/stdio-jvm-options.json).
# shellcheck disable=SC2086 # short_lived is a list of options
exec "$JAVA_HOME/bin/java" $short_lived -Xlog:disable -Xlog:all=warning:stderr -XX:+DisplayVMOutputToStderr ${LAB_JAVA_OPTS:-} \
  -Dlab.home=/opt/lab -jar /opt/lab/lab-cli/target/lab.jar "$@"
