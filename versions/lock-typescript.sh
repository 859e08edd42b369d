#!/usr/bin/env bash
# Makes versions/typescript/<release>/package.json and package-lock.json for each TypeScript SDK release that
# `lab versions` plays: the fixture's own package.json with @modelcontextprotocol/server at that release, and the
# newest @modelcontextprotocol/node (the HTTP adapter the fixture imports) whose peer range takes it. Needs npm and the
# registry; run it again only to add a release (the locks are committed, and the default column's lock is never read
# or written here).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
fixture="$here/../ts-fixture/package.json"
# release of @modelcontextprotocol/server -> the @modelcontextprotocol/node release beside it (its peer range)
pairs=(2.0.0:2.0.0 2.1.0:2.1.0 2.2.0:2.1.0 2.3.0:2.1.1 2.3.1:2.1.1 2.4.0:2.1.2)
for pair in "${pairs[@]}"; do
  server="${pair%%:*}" node="${pair##*:}"
  out="$here/typescript/$server"
  mkdir -p "$out"
  if grep -q "\"@modelcontextprotocol/server\": \"$server\"" "$fixture"; then
    # the default column's release: its own lock, so that this row and the matrix's column are one build
    cp "$fixture" "$(dirname "$fixture")/package-lock.json" "$out/"
    echo "typescript $server: the fixture's own lock" >&2
    continue
  fi
  work="$(mktemp -d)"
  sed -e "s|\"@modelcontextprotocol/server\": \"[^\"]*\"|\"@modelcontextprotocol/server\": \"$server\"|" \
      -e "s|\"@modelcontextprotocol/node\": \"[^\"]*\"|\"@modelcontextprotocol/node\": \"$node\"|" "$fixture" >"$work/package.json"
  (cd "$work" && npm install --package-lock-only --ignore-scripts --no-audit --no-fund >/dev/null)
  cp "$work/package.json" "$work/package-lock.json" "$out/"
  rm -rf "$work"
  echo "typescript $server (node adapter $node): $out" >&2
done
