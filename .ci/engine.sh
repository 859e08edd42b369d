# The Docker engine that .ci/run starts when none answers, as functions .ci/run sources and
# containers' CiEngineStopIT runs on an engine of its own (its own socket, exec root and data root).
#
# engine_start STATE DATA_ROOT SOCKET   starts dockerd (no bridge, no iptables: containers get loopback only) with
#                                       its exec root and pid file under STATE, waits until it answers on SOCKET;
#                                       sets engine_pid; returns non-zero if it never answers.
# engine_stop                           stops that dockerd by its PID (SIGTERM, 30 s, then SIGKILL), unmounts what
#                                       it left under STATE (it leaves the bind mount exec/netns/default), removes
#                                       STATE; says what it could not undo and never fails, so the caller's status
#                                       stays the test command's own.
# engine_clear_earlier PREFIX           stops the engines earlier scripts started with state folders PREFIX* and
#                                       never stopped (they were killed), and releases those folders.
# engine_exit_trap                      the EXIT trap of a script that may have started one: engine_stop, then the
#                                       script's own status (`trap engine_exit_trap EXIT`).
# engine_catch_signals                  from here on a SIGTERM or SIGINT ends the script with 143 or 130, and the
#                                       exit trap says so (bash's own default said "exit 0" and then died of the signal).
# engine_run CMD...                     runs the test command as a child and answers its status; a SIGTERM or SIGINT
#                                       to the script is passed to it, and the script then ends with 143 or 130, not
#                                       with the status of whatever finished last (a stopped run once said exit 0).

engine_pid=""
engine_state=""
engine_socket=""
engine_script_started=$SECONDS
engine_stopped_by=""
engine_child=""

engine_say() { printf 'ci: %s\n' "$*" >&2; }

engine_start() {
  engine_state="$1"
  local data_root="$2"
  engine_socket="$3"
  engine_say "starting dockerd (no bridge, no iptables; data root $data_root, log $engine_state/dockerd.log)"
  setsid /usr/sbin/dockerd --data-root "$data_root" --exec-root "$engine_state/exec" --pidfile "$engine_state/dockerd.pid" \
    --bridge=none --iptables=false --ip6tables=false --ip-masq=false -H "unix://$engine_socket" \
    >"$engine_state/dockerd.log" 2>&1 </dev/null &
  engine_pid=$!
  local _
  for _ in $(seq 60); do
    docker -H "unix://$engine_socket" info >/dev/null 2>&1 && break
    kill -0 "$engine_pid" 2>/dev/null || break
    sleep 1
  done
  # The pid file is dockerd's own word for its PID (setsid may have forked).
  [[ -s "$engine_state/dockerd.pid" ]] && engine_pid="$(cat "$engine_state/dockerd.pid")"
  if ! docker -H "unix://$engine_socket" info >/dev/null 2>&1; then
    engine_say "dockerd did not answer; the end of its log:"
    tail -20 "$engine_state/dockerd.log" >&2 || true
    return 1
  fi
  engine_say "dockerd answers (pid $engine_pid, $(docker -H "unix://$engine_socket" info --format '{{.ServerVersion}}, storage {{.Driver}}'))"
}

# Mount points at or under $1 in this mount namespace, deepest first (mountinfo's fifth field; the lab's folders
# hold no characters that mountinfo escapes).
engine_mounts_under() {
  awk -v d="$1" '$5 == d || index($5, d "/") == 1 { print $5 }' /proc/self/mountinfo | sort -r
}

engine_stop() {
  [[ -n "$engine_pid" || -n "$engine_state" ]] || return 0
  # Whatever fails below is said and passed over: the status that counts is the caller's.
  local errexit=""
  [[ $- == *e* ]] && errexit=1
  set +e
  if [[ -n "$engine_pid" ]]; then
    engine_say "stopping dockerd (pid $engine_pid)"
    kill "$engine_pid" 2>/dev/null
    local _
    for _ in $(seq 30); do kill -0 "$engine_pid" 2>/dev/null || break; sleep 1; done
    if kill -0 "$engine_pid" 2>/dev/null; then
      engine_say "dockerd (pid $engine_pid) did not stop in 30 s; killing it"
      kill -KILL "$engine_pid" 2>/dev/null
      for _ in $(seq 10); do kill -0 "$engine_pid" 2>/dev/null || break; sleep 1; done
    fi
  fi
  if [[ -n "$engine_state" && -d "$engine_state" ]]; then
    local mount
    while read -r mount; do
      [[ -n "$mount" ]] || continue
      umount "$mount" 2>/dev/null || umount -l "$mount" 2>/dev/null || engine_say "cannot unmount $mount"
    done < <(engine_mounts_under "$engine_state")
    if [[ -n "$(engine_mounts_under "$engine_state")" ]]; then
      engine_say "mounts remain under $engine_state; leaving it in place rather than removing through them"
    else
      rm -rf "$engine_state" 2>/dev/null || engine_say "cannot remove $engine_state"
    fi
  fi
  engine_pid=""
  engine_state=""
  [[ -n "$errexit" ]] && set -e
  return 0
}

# Engines an earlier script started with state folders named PREFIX* and never stopped (it was killed): each is
# stopped and its folder released, so that no later run adopts an engine in an unknown state.
engine_clear_earlier() {
  local prefix="$1" state pid
  for state in "$prefix"*; do
    [[ -d "$state" ]] || continue
    pid="$(cat "$state/dockerd.pid" 2>/dev/null || true)"
    engine_pid=""
    if [[ -n "$pid" ]] && tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -qF -- "--exec-root $state/exec"; then
      engine_say "an engine an earlier run started is still running (pid $pid); stopping it"
      engine_pid="$pid"
    fi
    engine_state="$state"
    engine_stop
  done
}

# A signal with no child running ends the script here; one that comes while the child is being started is noted, and
# engine_run passes it on as soon as it knows the child's PID (a stop that came that early once went unseen).
engine_on_signal() {
  engine_stopped_by="$1"
  case "$engine_child" in
    "") exit "$1" ;;
    starting) ;;
    *) kill "-$2" "$engine_child" 2>/dev/null || true ;;
  esac
}

engine_catch_signals() {
  trap 'engine_on_signal 143 TERM' TERM
  trap 'engine_on_signal 130 INT' INT
}

engine_exit_trap() {
  local status=$?
  [[ -z "$engine_stopped_by" ]] || status=$engine_stopped_by
  trap - EXIT
  set +e
  engine_stop
  engine_say "finished in $((SECONDS - engine_script_started)) s (exit $status)"
  exit "$status"
}

# The traps are in place before the child starts, so a signal can never meet bash's default disposition here.
engine_run() {
  engine_catch_signals
  engine_child=starting
  "$@" &
  engine_child=$!
  if [[ -n "$engine_stopped_by" ]]; then
    kill "-$([[ $engine_stopped_by == 130 ]] && echo INT || echo TERM)" "$engine_child" 2>/dev/null || true
  fi
  local status=0
  wait "$engine_child" || status=$?
  if [[ -n "$engine_stopped_by" ]]; then
    wait "$engine_child" 2>/dev/null || true
    status=$engine_stopped_by
  fi
  engine_child=""
  return "$status"
}
