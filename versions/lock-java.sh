#!/usr/bin/env bash
# Makes versions/java/<release>/pom.xml and resolved.txt for each release of the Java SDK (io.modelcontextprotocol.sdk
# mcp-core and mcp-json-jackson2, the two artifacts the Java server uses) that `lab versions` plays. The pom declares
# only those two at that release; resolved.txt lists the runtime jars Maven resolves for it (the release's own
# transitive versions), which the build checks before compiling. Needs mvn and Maven Central; run it again only to add
# a release (the lab's own pom.xml is never read or written here).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
releases=(2.0.0 2.0.1 2.1.0 2.2.0)
for release in "${releases[@]}"; do
  out="$here/java/$release"
  mkdir -p "$out"
  cat >"$out/pom.xml" <<POM
<?xml version="1.0" encoding="UTF-8"?>
<!-- The Java SDK at $release for lab versions (made by versions/lock-java.sh): the two artifacts the Java server
     compiles against, resolved with their own transitive versions. -->
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>lab.continuationreplay.versions</groupId>
  <artifactId>java-sdk</artifactId>
  <version>$release</version>
  <packaging>pom</packaging>
  <dependencies>
    <dependency>
      <groupId>io.modelcontextprotocol.sdk</groupId>
      <artifactId>mcp-core</artifactId>
      <version>$release</version>
    </dependency>
    <dependency>
      <groupId>io.modelcontextprotocol.sdk</groupId>
      <artifactId>mcp-json-jackson2</artifactId>
      <version>$release</version>
    </dependency>
  </dependencies>
  <build>
    <plugins>
      <plugin>
        <groupId>org.apache.maven.plugins</groupId>
        <artifactId>maven-dependency-plugin</artifactId>
        <version>3.8.1</version>
      </plugin>
    </plugins>
  </build>
</project>
POM
  work="$(mktemp -d)"
  cp "$out/pom.xml" "$work/pom.xml"
  (cd "$work" && mvn -q -B dependency:copy-dependencies -DincludeScope=runtime -DoutputDirectory=lib </dev/null)
  (cd "$work/lib" && ls -1 ./*.jar | sed 's|^\./||' | LC_ALL=C sort) >"$out/resolved.txt"
  rm -rf "$work"
  echo "java $release: $(wc -l <"$out/resolved.txt") jars" >&2
done
