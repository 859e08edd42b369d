# Sourced by ./lab: `lab doctor`, and the check `lab matrix` runs before it builds. Plain bash and `command -v`
# only, so it runs before any build and on a machine missing most tools. Nothing here installs anything: it names the
# one command that would.

doctor_missing=()
doctor_warnings=()

# The version a tool prints first, as major.minor (e.g. "17.0", "20.20"); empty when it prints none.
doctor_version() {
  local text
  text="$("$@" 2>&1 | head -n 3)" || true
  if [[ "$text" =~ ([0-9]+)\.([0-9]+) ]]; then
    echo "${BASH_REMATCH[1]}.${BASH_REMATCH[2]}"
  fi
}

# Is version $1 (major.minor) at least $2 (major.minor)?
doctor_at_least() {
  local have_major="${1%%.*}" have_minor="${1#*.}" want_major="${2%%.*}" want_minor="${2#*.}"
  ((have_major > want_major || (have_major == want_major && have_minor >= want_minor)))
}

# One check: a name, what needs it, the install command, and why it fails ($4; "" when it passes). A required one
# that fails is MISSING and stops the main job; an optional one is a warning.
doctor_report() {
  local level="$1" name="$2" needed_by="$3" install="$4" problem="${5#, }"
  if [[ -z "$problem" ]]; then
    printf 'ok       %-22s %s\n' "$name" "$needed_by"
  elif [[ "$level" == required ]]; then
    printf 'MISSING  %-22s %s (%s)\n         install: %s\n' "$name" "$needed_by" "$problem" "$install"
    doctor_missing+=("$name")
  else
    printf 'warning  %-22s %s (%s)\n         install: %s\n' "$name" "$needed_by" "$problem" "$install"
    doctor_warnings+=("$name")
  fi
}

doctor_need() {
  doctor_report required "$@"
}

doctor_may() {
  doctor_report optional "$@"
}

# "" when the command exists at version $2 or later; else why not.
doctor_problem() {
  local command="$1" want="$2"
  shift 2
  if ! command -v "$command" >/dev/null 2>&1; then
    echo "not on PATH"
    return
  fi
  local have
  have="$(doctor_version "$@")"
  if [[ -z "$have" ]]; then
    echo "$command prints no version"
  elif ! doctor_at_least "$have" "$want"; then
    echo "$have found, $want or later needed"
  fi
}

# A JDK of major version $1 anywhere the container build looks (java on PATH, JAVA_HOME, /usr/lib/jvm, /opt).
doctor_jdk() {
  local want="$1" candidate
  for candidate in "${JAVA_HOME:-}" /usr/lib/jvm/* /opt/java/* /opt/*; do
    if [[ -n "$candidate" && -f "$candidate/release" ]] && grep -q "^JAVA_VERSION=\"$want[.\"]" "$candidate/release" 2>/dev/null; then
      return 0
    fi
  done
  return 1
}

# "" when there is a headless browser where lab picture looks (Chromium.java): LAB_CHROMIUM, else one of three names.
doctor_chromium() {
  if [[ -n "${LAB_CHROMIUM:-}" ]]; then
    [[ -f "$LAB_CHROMIUM" && -x "$LAB_CHROMIUM" ]] || echo "LAB_CHROMIUM=$LAB_CHROMIUM is not an executable file"
    return
  fi
  command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || command -v google-chrome >/dev/null 2>&1 \
    || echo "not on PATH (chromium, chromium-browser or google-chrome), and LAB_CHROMIUM unset"
}

# The SDK columns beside java, each needing a toolchain of its own (java needs only what the build needs).
doctor_columns=(typescript python go rust)

# The check of column $1's toolchain, as doctor_need's arguments: name, what needs it, install command, problem.
doctor_column_check() {
  case "$1" in
    typescript)
      doctor_need "Node.js 20 (node, npm)" "the typescript column and client" \
        "install Node.js 20 or later with npm from your distribution or nodejs.org" \
        "$(doctor_problem node 20.0 node --version)$(command -v npm >/dev/null 2>&1 || echo ", npm not on PATH")" ;;
    python)
      doctor_need "Python 3.11 with venv" "the python column and client (a venv from requirements.lock)" \
        "apt-get install -y python3 python3-venv" \
        "$(doctor_problem python3 3.11 python3 --version)$(python3 -c 'import venv, ensurepip' >/dev/null 2>&1 || echo ", no venv/ensurepip module")" ;;
    go)
      doctor_need "Go 1.25" "the go column and client (go.mod says go 1.25.0)" \
        "install Go 1.25 or later from go.dev/dl (Debian's golang-go is older)" "$(doctor_problem go 1.25 go version)" ;;
    rust)
      doctor_need "Rust 1.88 (cargo)" "the rust column and client (rmcp 3.11.0 needs Rust 1.88; edition 2024)" \
        "install Rust with rustup (rustup.rs), then rustup default stable (Debian's cargo is older)" \
        "$(doctor_problem cargo 1.88 cargo --version)" ;;
  esac
}

# Every check; the main job (every column) needs the first group, the rest are warnings. Sets doctor_missing (every
# missing required tool), doctor_missing_columns (the columns whose own toolchain is missing) and doctor_missing_base
# (how many missing tools every column needs: each column adds one check).
doctor_check() {
  local home="$1" column before
  doctor_missing=()
  doctor_warnings=()
  doctor_missing_columns=()
  doctor_missing_column_tools=()
  echo "required: the build and the main job (./lab matrix, every column)"
  doctor_need "JDK 17 (java)" "every column: the lab, the Java server, the bridge" \
    "apt-get install -y openjdk-17-jdk-headless" "$(doctor_problem java 17.0 java -version)"
  doctor_need "javac" "the build" "apt-get install -y openjdk-17-jdk-headless" \
    "$(command -v javac >/dev/null 2>&1 || echo "not on PATH")"
  doctor_need "Maven" "the build" "apt-get install -y maven" "$(doctor_problem mvn 3.8 mvn -v)"
  for column in "${doctor_columns[@]}"; do
    before=${#doctor_missing[@]}
    doctor_column_check "$column"
    if ((${#doctor_missing[@]} > before)); then
      doctor_missing_columns+=("$column")
      doctor_missing_column_tools+=("${doctor_missing[before]}")
    fi
  done
  local free_kib
  free_kib="$(df -Pk "$home" 2>/dev/null | tail -n 1 | awk '{print $4}')" || true
  doctor_need "2 GiB free disk" "the build and the runs' evidence under $home" "free some space on that file system" \
    "$([[ -n "$free_kib" && "$free_kib" -ge 2097152 ]] || echo "$((${free_kib:-0} / 1024)) MiB free")"
  doctor_missing_base=$((${#doctor_missing[@]} - ${#doctor_missing_columns[@]}))
  echo "optional: warnings only"
  doctor_may "JDK 25" "lab matrix --in-container's JDK 25 cells" "apt-get install -y temurin-25-jdk (Adoptium's Debian repository)" \
    "$(doctor_jdk 25 || echo "no JDK 25 in JAVA_HOME, /usr/lib/jvm or /opt")"
  doctor_may "Docker engine" "lab matrix --in-container, lab replicas, the container tests" \
    "apt-get install -y docker.io, then start dockerd (.ci/run does both)" \
    "$(command -v docker >/dev/null 2>&1 || echo "docker not on PATH")$(command -v docker >/dev/null 2>&1 && ! docker info >/dev/null 2>&1 && echo "no engine answers")"
  doctor_may "Chromium" "lab picture, the report-page tests (bench.html, report.html)" "apt-get install -y chromium" \
    "$(doctor_chromium)"
}

# What is missing, joined by "; " (a name may hold a comma).
doctor_list() {
  local joined="" name
  for name in "${doctor_missing[@]}"; do
    joined+="${joined:+; }$name"
  done
  echo "$joined"
}

# The columns this machine can run, as an --sdk value (java first); empty when a tool every column needs is missing.
doctor_runnable() {
  ((doctor_missing_base == 0)) || return 0
  local runnable="java" column
  for column in "${doctor_columns[@]}"; do
    [[ " ${doctor_missing_columns[*]} " == *" $column "* ]] || runnable+=",$column"
  done
  echo "$runnable"
}

# "; this machine can run ./lab matrix --sdk ..." when some columns can run, else "".
doctor_runnable_hint() {
  local runnable
  runnable="$(doctor_runnable)"
  [[ -z "$runnable" ]] || echo "; this machine can run ./lab matrix --sdk $runnable"
}

# `lab doctor`: every check, then one verdict line. 0 when the main job can run, 2 otherwise.
doctor_main() {
  doctor_check "$1"
  if ((${#doctor_missing[@]} > 0)); then
    echo "doctor: the main job cannot run; missing: $(doctor_list)$(doctor_runnable_hint)"
    return 2
  fi
  echo "doctor: the main job can run${doctor_warnings[*]:+ (warnings: ${#doctor_warnings[@]})}"
  return 0
}

# Before a build for the columns named after the home ($2...): the required checks, quietly unless one fails. A
# missing tool every column needs, or the toolchain of a column asked for, stops it with the missing lines and exit 2,
# instead of a build failure deep in Maven's output. A missing toolchain of a column not asked for lands in
# doctor_without: the build leaves that column's toolchain steps out.
doctor_before_build() {
  local home="$1" report column i
  shift
  report="$(mktemp)"
  # not in a subshell: the lists of what is missing must reach this shell
  doctor_check "$home" >"$report"
  doctor_without=()
  local blocked=() blocking=()
  for i in "${!doctor_missing_columns[@]}"; do
    column="${doctor_missing_columns[i]}"
    if [[ " $* " == *" $column "* ]]; then
      blocked+=("$column")
      blocking+=("${doctor_missing_column_tools[i]}")
    else
      doctor_without+=("$column")
    fi
  done
  if ((doctor_missing_base > 0 || ${#blocked[@]} > 0)); then
    grep -A1 '^MISSING' "$report" >&2
    rm -f "$report"
    if ((doctor_missing_base > 0)); then
      echo "lab: cannot build: $(doctor_list) missing (./lab doctor says more)" >&2
    else
      local names="${blocked[*]}" tools
      tools="$(IFS=';'; echo "${blocking[*]}")"
      echo "lab: cannot build the ${names// /, } column$( ((${#blocked[@]} > 1)) && echo s): ${tools//;/; } missing" \
        "(./lab doctor says more)$(doctor_runnable_hint)" >&2
    fi
    exit 2
  fi
  rm -f "$report"
}
