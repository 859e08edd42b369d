#!/usr/bin/env bash
# Builds the lab's container images on this machine, never pulling from a registry, and prints one line per runtime
# cell on stdout: "<cell><TAB><runner image>". Progress goes to stderr. See docs/containers.md.
#
#   containers/build-images.sh [--runtime jdk17-node20,jdk25-node22|all]
#   containers/build-images.sh --postgres      only the PostgreSQL image of lab replicas; prints "postgres<TAB><image>"
#
# Three levels for the matrix, and the PostgreSQL image beside them, each tagged with a hash of its inputs, so an
# unchanged one is never rebuilt:
#   local/lab-base:bookworm-minbase-<h>   debootstrap --variant=minbase bookworm from the Debian archive, docker import
#                                         (the root file system is also kept as a tarball in the cache folder)
#   local/lab-runtime:<cell>-<h>          containers/runtime/Dockerfile: base + one JDK + one Node.js + this machine's
#                                         Python 3 (its Debian packages' files), copied from this machine (h: base
#                                         image id, JDK, node and Python content hashes, Dockerfile)
#   local/lab-runner:<cell>-<h>           containers/runner/Dockerfile: runtime + the built lab (the Go fixture's static
#                                         binary among it) + the py-fixture's virtual environment, installed in the
#                                         build from requirements.lock (--require-hashes) out of wheels downloaded on
#                                         this machine, because the build has no network (h: runtime image id, lab
#                                         content hash, wheel hashes, Dockerfile, entrypoint)
#   local/lab-postgres:bookworm-<h>       (--postgres) containers/postgres/Dockerfile: base + Debian's postgresql-15,
#                                         installed by apt-get in a --network host build (its only network use), and
#                                         the entrypoint (h: base image id, Dockerfile, entrypoint)
#
# Environment (all optional):
#   LAB_CONTAINER_CACHE      cache folder (default ${XDG_CACHE_HOME:-~/.cache}/continuation-replay-lab)
#   LAB_DEBIAN_MIRROR        Debian archive for debootstrap (default: the first URIs of apt's debian.sources)
#   LAB_JDK17_HOME           default: the first JDK 17 found (JAVA_HOME, java on PATH, /usr/lib/jvm/*, /opt/java/*, /opt/*)
#   LAB_JDK25_HOME           default: the first JDK 25 found, likewise
#   LAB_NODE20               a Node.js 20 binary (default: node on PATH, checked to be v20)
#   LAB_NODE22               a Node.js 22 binary (default: the npm package node@$NODE22_VERSION, installed into the cache)
#   LAB_BASE_IMAGE_JDK17     on a machine with registry access: an official JDK image to build FROM instead of the
#   LAB_BASE_IMAGE_JDK25       debootstrap base and a copied JDK, e.g. eclipse-temurin:17-jdk / eclipse-temurin:25-jdk
#   LAB_BASE_JAVA_HOME       the JDK's folder inside such an image (default /opt/java/openjdk)
set -euo pipefail

readonly NODE22_VERSION=22.23.3            # npm package node@22, pinned
readonly SUITE=bookworm VARIANT=minbase
readonly BASE_RECIPE_VERSION=1             # bump when the base recipe below changes
readonly ALL_CELLS=(jdk17-node20 jdk17-node22 jdk25-node20 jdk25-node22)

home="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# A lab started with a bare environment (no HOME) still finds the user's home, so it shares the one image cache.
user_home="${HOME:-$(getent passwd "$(id -u)" | cut -d: -f6)}"
cache="${LAB_CONTAINER_CACHE:-${XDG_CACHE_HOME:-${user_home:-/tmp}/.cache}/continuation-replay-lab}"
export DOCKER_BUILDKIT=0                   # the legacy builder: the known-working path with dockerd 20.10 here

log() { printf '%s build-images: %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }
die() { log "error: $*"; exit 1; }

runtime_arg=all
runtime_given=""
postgres=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --postgres) postgres=1; shift ;;
    --runtime) runtime_arg="${2:?--runtime needs a value}"; runtime_given=1; shift 2 ;;
    --runtime=*) runtime_arg="${1#--runtime=}"; runtime_given=1; shift ;;
    -h|--help) awk 'NR > 1 && /^#/ {sub(/^# ?/, ""); print; next} NR > 1 {exit}' "${BASH_SOURCE[0]}"; exit 0 ;;
    *) die "unknown argument $1" ;;
  esac
done
[[ -z "$postgres" || -z "$runtime_given" ]] || die "--postgres builds only the PostgreSQL image; give it without --runtime"
cells=()
if [[ "$runtime_arg" == all ]]; then
  cells=("${ALL_CELLS[@]}")
else
  IFS=, read -r -a cells <<<"$runtime_arg"
  for cell in "${cells[@]}"; do
    [[ " ${ALL_CELLS[*]} " == *" $cell "* ]] || die "unknown runtime cell '$cell' (one of ${ALL_CELLS[*]})"
  done
fi

docker info >/dev/null 2>&1 || die "no Docker engine answers (docker info failed); start dockerd first (docs/containers.md)"
mkdir -p "$cache"/{base,hashes,tmp}
# One build at a time per cache folder (a test and the CLI may ask at once).
exec 9>"$cache/build.lock"
flock 9

work="$(mktemp -d "$cache/tmp/build.XXXXXX")"
trap 'rm -rf "$work"' EXIT

sha() { sha256sum | cut -c1-64; }
# Runs a command with its output in a log file; shows the log's end when it fails.
quiet() {
  local logfile="$1"; shift
  "$@" >"$logfile" 2>&1 || { tail -30 "$logfile" >&2; die "failed: $*"; }
}
image_id() { docker image inspect --format '{{.Id}}' "$1" 2>/dev/null; }

# Content hash of files and folders (paths, types, modes, link targets, bytes). Remembered per listing (paths, sizes,
# modification times) in the cache, so an unchanged JDK is hashed once per machine, not once per run.
content_hash() {
  local listing memo
  listing="$(for p in "$@"; do find "$p" -printf '%p %y %m %s %T@ %l\n'; done | LC_ALL=C sort | sha)"
  memo="$cache/hashes/$listing"
  if [[ ! -s "$memo" ]]; then
    { for p in "$@"; do find "$p" -printf '%p %y %m %l\n'; done | LC_ALL=C sort
      for p in "$@"; do find "$p" -type f -print0; done | LC_ALL=C sort -z | xargs -0 -r sha256sum
    } | sha >"$memo.part"
    mv "$memo.part" "$memo"
  fi
  cat "$memo"
}

# Copies a path into an overlay tree at the same absolute path: hard links when the file system allows, else a copy.
overlay_copy() {
  local source="$1" tree="$2"
  mkdir -p "$tree$(dirname "$source")"
  cp -a --link "$source" "$tree$(dirname "$source")/" 2>/dev/null || cp -a "$source" "$tree$(dirname "$source")/"
}

debian_mirror() {
  if [[ -n "${LAB_DEBIAN_MIRROR:-}" ]]; then echo "$LAB_DEBIAN_MIRROR"; return; fi
  local uri=""
  if [[ -f /etc/apt/sources.list.d/debian.sources ]]; then
    uri="$(awk '/^URIs:/ {print $2; exit}' /etc/apt/sources.list.d/debian.sources)"
  fi
  if [[ -z "$uri" && -f /etc/apt/sources.list ]]; then
    uri="$(awk '$1 == "deb" && $0 !~ /security/ {for (i = 2; i <= NF; i++) if ($i ~ /^https?:/) {print $i; exit}}' /etc/apt/sources.list)"
  fi
  echo "${uri:-http://deb.debian.org/debian}"
}

# --- level 1: the base image (debootstrap, imported) --------------------------------------------------------------
base_image() {
  local recipe tag tarball rootfs started
  recipe="$(printf 'debootstrap --variant=%s %s amd64 recipe-%s' "$VARIANT" "$SUITE" "$BASE_RECIPE_VERSION" | sha)"
  tag="local/lab-base:$SUITE-$VARIANT-${recipe:0:12}"
  if image_id "$tag" >/dev/null; then
    log "base $tag: cached"
    echo "$tag"; return
  fi
  tarball="$cache/base/$SUITE-$VARIANT-${recipe:0:12}.tar"
  if [[ ! -s "$tarball" ]]; then
    command -v debootstrap >/dev/null || die "debootstrap is missing (apt-get install debootstrap)"
    [[ "$(id -u)" == 0 ]] || die "debootstrap needs root"
    rootfs="$work/rootfs"
    started=$SECONDS
    log "base: debootstrap --variant=$VARIANT $SUITE from $(debian_mirror) (a few minutes, once per machine)"
    debootstrap --variant="$VARIANT" "$SUITE" "$rootfs" "$(debian_mirror)" >"$work/debootstrap.log" 2>&1 \
      || { tail -20 "$work/debootstrap.log" >&2; die "debootstrap failed"; }
    rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/*.bin "$rootfs"/var/cache/apt/archives/*.deb
    tar --numeric-owner -C "$rootfs" -cf "$tarball.part" .
    mv "$tarball.part" "$tarball"
    rm -rf "$rootfs"
    log "base: root file system in $((SECONDS - started)) s, kept as $tarball"
  fi
  docker import \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'ENV LANG=C.UTF-8' \
    --change 'CMD ["/bin/bash"]' \
    --change "LABEL lab.recipe=debootstrap-$VARIANT-$SUITE lab.inputs.sha256=$recipe" \
    --message "debootstrap --variant=$VARIANT $SUITE" \
    "$tarball" "$tag" >/dev/null
  log "base $tag: imported"
  echo "$tag"
}

# --- runtimes on this machine ---------------------------------------------------------------------------------------
# LAB_JDK<major>_HOME when set, else the first JDK of that major version found on this machine: JAVA_HOME, the JDK of
# `java` on PATH, then every folder under /usr/lib/jvm, /opt/java and /opt (by its release file, not its name; a
# symbolic link to a JDK found already is skipped, so the same JDK always has the same path and image hash).
jdk_home() {
  local major="$1" var="LAB_JDK${1}_HOME" candidate on_path=""
  if [[ -n "${!var:-}" ]]; then echo "${!var}"; return; fi
  command -v java >/dev/null && on_path="$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")"
  for candidate in "${JAVA_HOME:-}" "$on_path" /usr/lib/jvm/* /opt/java/* /opt/*; do
    [[ -n "$candidate" && ! -L "$candidate" && -x "$candidate/bin/java" && -f "$candidate/release" ]] || continue
    if grep -q "^JAVA_VERSION=\"$major[.\"]" "$candidate/release"; then echo "$candidate"; return; fi
  done
  echo "/no-jdk-$major-found"
}

# The JDK folder plus every file its absolute symbolic links point to outside it (Debian keeps the JDK's
# configuration in /etc/java-17-openjdk and its trust store in /etc/ssl/certs/java).
jdk_paths() {
  local jdk="$1" target
  echo "$jdk"
  while IFS= read -r target; do
    [[ "$target" != "$jdk"/* && -e "$target" ]] && echo "$target"
  done < <(find "$jdk" -type l -lname '/*' -printf '%l\n' | LC_ALL=C sort -u)
}

node_binary() {
  local major="$1" binary version
  case "$major" in
    20) binary="${LAB_NODE20:-$(command -v node || true)}" ;;
    22)
      binary="${LAB_NODE22:-$cache/node22/node_modules/node/bin/node}"
      if [[ -z "${LAB_NODE22:-}" && ! -x "$binary" ]]; then
        log "node 22: npm install node@$NODE22_VERSION into $cache/node22"
        rm -rf "$cache/node22"
        mkdir -p "$cache/node22"
        quiet "$work/npm-node22.log" npm install --prefix "$cache/node22" --no-save --no-audit --no-fund "node@$NODE22_VERSION"
      fi ;;
  esac
  [[ -n "$binary" && -x "$binary" ]] || die "no Node.js $major binary (set LAB_NODE$major)"
  binary="$(readlink -f "$binary")"
  version="$("$binary" --version)"
  [[ "$version" == "v$major."* ]] || die "$binary is $version, not Node.js $major (set LAB_NODE$major)"
  echo "$binary"
}

# This machine's Python 3 as an overlay tree: the files of its Debian packages (interpreter, standard library, pip's
# wheel for installing without ensurepip) and of the two libraries the base lacks (libexpat for the interpreter,
# libssl3 for ssl/hashlib). Debian's python3 on Debian's base: the same glibc, so nothing else is needed.
python_paths() {
  local version package
  # Debian's own interpreter, not whichever python3 comes first on PATH (a pyenv build, say): only a packaged one
  # can be copied file by file.
  version="$(/usr/bin/python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])')" || die "no /usr/bin/python3 (Debian's python3) on this machine"
  for package in "python$version-minimal" "libpython$version-minimal" "libpython$version-stdlib" python3-minimal \
      python3-pip-whl libexpat1 libssl3; do
    dpkg -L "$package" >/dev/null 2>&1 || die "the Debian package $package is not installed (the runtime image copies Python 3 from it)"
    dpkg -L "$package"
  done | grep -v -E '^/usr/share/(doc|man|lintian)(/|$)|^/\.$' | while IFS= read -r f; do
    # Debian's merged /usr: a package lists /lib/... while the base has /lib -> usr/lib, so every path is named
    # through its real folder (copying a /lib folder over the base's /lib link would break the image).
    # (an if, not [[ ]] && echo: a folder as the last path would end the loop, and so the pipeline, with status 1)
    if [[ ( -f "$f" || -L "$f" ) && ! -d "$f" ]]; then echo "$(readlink -f "$(dirname "$f")")/$(basename "$f")"; fi
  done | LC_ALL=C sort -u
}

# The Python files and their content hash, once per run (every cell copies the same Python).
python=()
python_hash=""
python_inputs() {
  [[ -n "$python_hash" ]] && return
  # A die inside a process substitution ends only that subshell: its status, from wait, stops the script too.
  mapfile -t python < <(python_paths)
  wait $! || exit 1
  python_hash="$(printf '%s\n' "${python[@]}" | xargs -d '\n' sha256sum | sha)"
}

# --- level 2: the runtime image of one cell ------------------------------------------------------------------------
runtime_image() {
  local cell="$1" jdk="${1%%-*}" node="${1##*-}" base base_id java_home jdk_dir node_bin inputs tag context
  jdk="${jdk#jdk}"; node="${node#node}"
  local official_var="LAB_BASE_IMAGE_JDK$jdk"
  local official="${!official_var:-}"
  node_bin="$(node_binary "$node")"
  if [[ -n "$official" ]]; then
    base="$official"
    docker image inspect "$base" >/dev/null 2>&1 || docker pull "$base" >&2
    java_home="${LAB_BASE_JAVA_HOME:-/opt/java/openjdk}"
    jdk_dir=""
  else
    base="$(base_image)"
    jdk_dir="$(jdk_home "$jdk")"
    [[ -x "$jdk_dir/bin/java" ]] || die "no JDK $jdk at $jdk_dir (set LAB_JDK${jdk}_HOME)"
    grep -q "^JAVA_VERSION=\"$jdk[.\"]" "$jdk_dir/release" 2>/dev/null || die "$jdk_dir is not JDK $jdk (no JAVA_VERSION=\"$jdk... in its release file)"
    java_home="$jdk_dir"
  fi
  base_id="$(image_id "$base")"
  local paths=()
  [[ -z "$jdk_dir" ]] || mapfile -t paths < <(jdk_paths "$jdk_dir")
  inputs="$( {
    echo "base $base_id"; echo "java_home $java_home"
    sha256sum <"$home/containers/runtime/Dockerfile"
    [[ -z "$jdk_dir" ]] || content_hash "${paths[@]}"
    echo "node $(content_hash "$node_bin")"
    echo "python $python_hash"
  } | sha)"
  tag="local/lab-runtime:$cell-${inputs:0:12}"
  if image_id "$tag" >/dev/null; then
    log "runtime $tag: cached"
    echo "$tag"; return
  fi
  context="$work/runtime-$cell"
  mkdir -p "$context/jdk" "$context/node/usr/local/bin" "$context/python"
  printf '%s\n' "${python[@]#/}" | tar -C / --no-recursion -cf - -T - | tar -C "$context/python" -xf -
  cp "$home/containers/runtime/Dockerfile" "$context/"
  if [[ -n "$jdk_dir" ]]; then
    for p in "${paths[@]}"; do overlay_copy "$p" "$context/jdk"; done
  fi
  cp -a --link "$node_bin" "$context/node/usr/local/bin/node" 2>/dev/null || cp -a "$node_bin" "$context/node/usr/local/bin/node"
  log "runtime $tag: building (JDK $jdk from ${jdk_dir:-$base}, Node.js $("$node_bin" --version), $(/usr/bin/python3 --version))"
  quiet "$work/build-$cell.log" docker build --network none -t "$tag" --label "lab.inputs.sha256=$inputs" \
    --label "lab.cell=$cell" --build-arg "BASE_IMAGE=$base" --build-arg "JAVA_HOME_IN_IMAGE=$java_home" "$context"
  rm -rf "$context"
  prune_other_tags local/lab-runtime "$cell" "$tag"
  echo "$tag"
}

# --- level 3: the runner image (the built lab) ---------------------------------------------------------------------
lab_files() {
  local f
  for f in lab-cli/target/lab.jar java-server/target/java-server.jar bridge/target/bridge.jar \
      ts-fixture/dist/server.js ts-fixture/dist/fingerprint-cli.js ts-fixture/dist/tools.json go-fixture/target/bin/go-fixture \
      rust-fixture/target/release/rust-fixture py-fixture/src/server.py vectors/rules/tools.json; do
    [[ -f "$home/$f" ]] || die "$f is missing; build the lab first (mvn -B -DskipTests install, or ./lab --help)"
  done
  # The Go fixture must be the static binary the Maven build makes (CGO_ENABLED=0), not one linked to this machine.
  file -b "$home/go-fixture/target/bin/go-fixture" 2>/dev/null | grep -q 'statically linked' \
    || ! ldd "$home/go-fixture/target/bin/go-fixture" >/dev/null 2>&1 \
    || die "go-fixture/target/bin/go-fixture is not static; rebuild it with the Maven build (CGO_ENABLED=0)"
  # The Rust fixture links the C library dynamically (glibc 2.34 or newer); every runtime image is Debian bookworm (2.36).
  # py-fixture: the sources and the lock only; its virtual environment is built inside the image. The Go fixture
  # finds the bridge jar above vectors/rules when no LAB_BRIDGE_COMMAND is given; the Python fixture reads
  # vectors/rules/tools.json there (the other servers carry the tool table in their own build output).
  printf '%s\n' lab-cli/target/lab.jar lab-cli/target/lib java-server/target/java-server.jar java-server/target/lib \
    bridge/target/bridge.jar bridge/target/lib ts-fixture/dist ts-fixture/package.json ts-fixture/package-lock.json \
    go-fixture/target/bin/go-fixture rust-fixture/target/release/rust-fixture py-fixture/src py-fixture/requirements.lock \
    vectors/rules
}

stage_lab() {
  local target="$1" f
  mkdir -p "$target"
  while IFS= read -r f; do
    mkdir -p "$target/$(dirname "$f")"
    cp -a "$home/$f" "$target/$(dirname "$f")/"
  done < <(lab_files)
  # Production dependencies only, from the lock file (npm's cache makes this offline after the first build).
  (cd "$target/ts-fixture" && quiet "$work/npm-ci.log" npm ci --omit=dev --ignore-scripts --prefer-offline --no-audit --no-fund)
  find "$target/py-fixture" -name __pycache__ -prune -exec rm -rf {} +
  mkdir -p "$target/bin"
  cp "$home/containers/runner/lab-entrypoint.sh" "$target/bin/lab"
  chmod 755 "$target/bin/lab"
}

# The wheels of py-fixture/requirements.lock, downloaded on this machine (pip's cache makes it offline after the first
# time) and checked against the lock's hashes here and again by pip inside the image build, which has no network.
# Kept in the cache folder per lock hash.
wheelhouse() {
  local lock_hash dir
  lock_hash="$(sha <"$home/py-fixture/requirements.lock")"
  dir="$cache/wheels/${lock_hash:0:16}"
  if [[ ! -f "$dir/.complete" ]]; then
    log "py-fixture: downloading the wheels of requirements.lock into $dir"
    rm -rf "$dir"; mkdir -p "$dir"
    [[ -x "$home/py-fixture/.venv/bin/python" ]] || die "py-fixture/.venv is missing; build the lab first"
    quiet "$work/pip-download.log" "$home/py-fixture/.venv/bin/python" -m pip download --disable-pip-version-check --no-input --quiet --no-deps \
      --require-hashes --only-binary=:all: --dest "$dir" -r "$home/py-fixture/requirements.lock"
    touch "$dir/.complete"
  fi
  echo "$dir"
}

# The built lab's content hash, the wheelhouse and its hash, once per run (every cell's runner copies the same lab).
lab_hash=""
wheels=""
wheels_hash=""
lab_inputs() {
  lab_hash="$(cd "$home" && mapfile -t files < <(lab_files) && wait $! && content_hash "${files[@]}")"
  wheels="$(wheelhouse)"
  wheels_hash="$(cd "$wheels" && sha256sum ./*.whl | sha)"
}

runner_image() {
  local cell="$1" runtime="$2" inputs tag context
  inputs="$( {
    echo "runtime $(image_id "$runtime")"; echo "lab $lab_hash"
    echo "wheels $wheels_hash"
    sha256sum <"$home/containers/runner/Dockerfile"; sha256sum <"$home/containers/runner/lab-entrypoint.sh"
  } | sha)"
  tag="local/lab-runner:$cell-${inputs:0:12}"
  if image_id "$tag" >/dev/null; then
    log "runner $tag: cached"
    echo "$tag"; return
  fi
  if [[ ! -d "$work/lab" ]]; then
    log "runner: staging the built lab"
    stage_lab "$work/lab/lab"
    mkdir -p "$work/lab/wheels"
    cp -a "$wheels"/*.whl "$work/lab/wheels/"
    cp "$home/containers/runner/Dockerfile" "$work/lab/"
  fi
  log "runner $tag: building"
  quiet "$work/build-runner-$cell.log" docker build --network none -t "$tag" --label "lab.inputs.sha256=$inputs" \
    --label "lab.cell=$cell" --build-arg "RUNTIME_IMAGE=$runtime" "$work/lab"
  prune_other_tags local/lab-runner "$cell" "$tag"
  echo "$tag"
}

# Older tags of the same cell are superseded; untag them so images do not pile up (shared layers stay).
prune_other_tags() {
  local repository="$1" cell="$2" keep="$3" old
  for old in $(docker images --format '{{.Repository}}:{{.Tag}}' "$repository" | grep ":$cell-" || true); do
    [[ "$old" == "$keep" ]] || docker rmi "$old" >/dev/null 2>&1 || true
  done
}

# --- the PostgreSQL image of lab replicas (--postgres) ------------------------------------------------------------
# Debian's postgresql-15, installed with apt-get from the Debian archive the base's apt source names: the only build
# here that reaches the network (--network host, for apt-get alone). The tag hashes the recipe, not the archive: a
# cached image keeps the package version it was built with until the base, the Dockerfile or the entrypoint changes.
postgres_image() {
  local base inputs tag context
  base="$(base_image)"
  inputs="$( {
    echo "base $(image_id "$base")"
    sha256sum <"$home/containers/postgres/Dockerfile"; sha256sum <"$home/containers/postgres/crlab-postgres-entrypoint.sh"
  } | sha)"
  tag="local/lab-postgres:$SUITE-${inputs:0:12}"
  if image_id "$tag" >/dev/null; then
    log "postgres $tag: cached"
    echo "$tag"; return
  fi
  context="$work/postgres"
  mkdir -p "$context"
  cp "$home/containers/postgres/Dockerfile" "$home/containers/postgres/crlab-postgres-entrypoint.sh" "$context/"
  log "postgres $tag: building (apt-get install postgresql-15 from the base's Debian archive)"
  quiet "$work/build-postgres.log" docker build --network host -t "$tag" --label "lab.inputs.sha256=$inputs" \
    --build-arg "BASE_IMAGE=$base" "$context"
  log "postgres $tag: built, $(docker run --rm --network none --pull never --entrypoint postgres "$tag" --version)"
  prune_other_tags local/lab-postgres "$SUITE" "$tag"
  echo "$tag"
}

started=$SECONDS
if [[ -n "$postgres" ]]; then
  image="$(postgres_image)"
  printf 'postgres\t%s\n' "$image"
  log "image ready in $((SECONDS - started)) s"
  exit 0
fi
# Here, not in runtime_image and runner_image: each runs in a subshell per cell, which would forget what it computed.
python_inputs
lab_inputs
for cell in "${cells[@]}"; do
  runtime="$(runtime_image "$cell")"
  runner="$(runner_image "$cell" "$runtime")"
  printf '%s\t%s\n' "$cell" "$runner"
done
log "images ready in $((SECONDS - started)) s"
