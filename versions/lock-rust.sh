#!/usr/bin/env bash
# Makes versions/rust/<release>/Cargo.toml and Cargo.lock for the newest patch of each minor release of rmcp from 3.0
# on (the Rust SDK; multi round-trip requests since 3.0.0) that `lab versions` plays: the fixture's own Cargo.toml
# with rmcp at that release, and the fixture's Cargo.lock moved to it by `cargo update -p rmcp --precise` (every other
# crate stays where the default column has it, unless the release needs another). The default column's release gets
# the fixture's own files. Needs cargo and crates.io; run it again only to add a release.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
fixture="$here/../rust-fixture"
releases=(3.0.1 3.1.4 3.2.0 3.3.0 3.4.1 3.5.1 3.6.0 3.7.0 3.8.0 3.9.0 3.10.0 3.11.0)
for release in "${releases[@]}"; do
  out="$here/rust/$release"
  mkdir -p "$out"
  if grep -q "^rmcp = { version = \"=$release\"" "$fixture/Cargo.toml"; then
    cp "$fixture/Cargo.toml" "$fixture/Cargo.lock" "$out/"
    echo "rust $release: the fixture's own Cargo.toml and Cargo.lock" >&2
    continue
  fi
  work="$(mktemp -d)"
  cp "$fixture/Cargo.toml" "$fixture/Cargo.lock" "$fixture/build.rs" "$work/"
  ln -s "$fixture/src" "$work/src"
  sed -i -E "s/^rmcp = \\{ version = \"=[0-9.]+\"/rmcp = { version = \"=$release\"/" "$work/Cargo.toml"
  (cd "$work" && cargo update --quiet -p rmcp --precise "$release")
  cp "$work/Cargo.toml" "$work/Cargo.lock" "$out/"
  rm -rf "$work"
  echo "rust $release: $out" >&2
done
