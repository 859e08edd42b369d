#!/usr/bin/env bash
# Makes versions/go/<release>/go.mod and go.sum for each release of the Go SDK (github.com/modelcontextprotocol/go-sdk)
# that `lab versions` plays: the fixture's own go.mod with the SDK at that release, tidied by `go mod tidy` against a
# copy of the fixture's sources (Go's package patterns do not follow links). The default column's release gets the
# fixture's own files, so that its row and the matrix's column are one build. Needs go and the module proxy; run it
# again only to add a release (go-fixture/go.mod and go.sum are never written here).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
fixture="$here/../go-fixture"
# the releases the module proxy lists from v1.2.0 on (v1.3.0 and v1.5.0 are not listed; pre-releases are left out)
releases=(1.2.0 1.3.1 1.4.0 1.4.1 1.6.0 1.6.1 1.7.0 1.8.0)
for release in "${releases[@]}"; do
  out="$here/go/$release"
  mkdir -p "$out"
  if grep -qx "require github.com/modelcontextprotocol/go-sdk v$release" "$fixture/go.mod"; then
    cp "$fixture/go.mod" "$fixture/go.sum" "$out/"
    echo "go $release: the fixture's own go.mod and go.sum" >&2
    continue
  fi
  work="$(mktemp -d)"
  cp -r "$fixture/go.mod" "$fixture/go.sum" "$fixture/cmd" "$fixture/internal" "$work/"
  # -e: an older release may lack a package the fixture imports; the build then says so in the row
  (cd "$work" && go mod edit -require="github.com/modelcontextprotocol/go-sdk@v$release" && go mod tidy -e)
  cp "$work/go.mod" "$work/go.sum" "$out/"
  rm -rf "$work"
  echo "go $release: $out" >&2
done
