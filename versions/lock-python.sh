#!/usr/bin/env bash
# Makes versions/python/<release>/requirements.lock for each release of the Python SDK (`mcp` on PyPI) that
# `lab versions` plays: `mcp==<release>` and everything it needs, pinned with hashes by pip-compile (pip-tools, run
# from a throwaway virtual environment). pip-compile starts from the fixture's own lock, so every other package stays
# where the default column has it unless the release needs another (and pip's cache already holds it). The default
# column's release gets the fixture's own lock, so that its row and the matrix's column are one build. Needs python3 and PyPI; run it again only to add a release (the locks are
# committed, and py-fixture/requirements.lock is never written here).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
fixture="$here/../py-fixture"
releases=(2.0.0 2.0.1 2.1.0 2.1.1 2.2.0 2.3.0)
tool="$(mktemp -d)"
trap 'rm -rf "$tool"' EXIT
python3 -m venv "$tool/venv"
"$tool/venv/bin/pip" install --quiet --disable-pip-version-check pip-tools==7.7.0
for release in "${releases[@]}"; do
  out="$here/python/$release"
  mkdir -p "$out"
  if grep -qx "mcp==$release" "$fixture/requirements.in"; then
    cp "$fixture/requirements.lock" "$out/requirements.lock"
    echo "python $release: the fixture's own lock" >&2
    continue
  fi
  cp "$fixture/requirements.lock" "$tool/requirements.lock"  # its pins, not the previous release's
  printf 'mcp==%s\n' "$release" >"$tool/requirements.in"
  (cd "$tool" && venv/bin/pip-compile --quiet --generate-hashes --no-header --strip-extras --allow-unsafe \
    --output-file requirements.lock requirements.in)
  cp "$tool/requirements.lock" "$out/requirements.lock"
  echo "python $release: $out/requirements.lock" >&2
done
