package bridge

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"lab.continuationreplay/gofixture/internal/repo"
	"lab.continuationreplay/gofixture/internal/ruletable"
)

const now = 1790035200

func realBridge(t *testing.T, extra map[string]string) *Client {
	t.Helper()
	root, err := repo.BuiltBridge()
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{
		"WIRE_SERVER_DB": filepath.Join(t.TempDir(), "store.sqlite3"), "WIRE_BACKEND_ID": "sqlite:guarded-matrix",
		"WIRE_PRINCIPAL": "alice", "WIRE_CLOCK_EPOCH": "1790035200",
		"WIRE_FINGERPRINT_KEY_HEX": "8c0aed9f1ff0487480b140421d28d2e49f5a61b8f1837dab9304a6d126f7adba",
		"WIRE_STATE_KEY_HEX":       "must-not-reach-the-bridge",
	}
	for k, v := range extra {
		env[k] = v
	}
	lookup := func(name string) (string, bool) {
		if v, ok := env[name]; ok {
			return v, true
		}
		return os.LookupEnv(name)
	}
	c, err := New(Options{Argv: DefaultCommand(root, os.Getenv), Env: Environment(lookup), Timeout: 30 * time.Second,
		Stderr: &strings.Builder{}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close(3 * time.Second) })
	return c
}

// standIn is a shell script reading request lines, for the failures a healthy bridge never shows.
func standIn(t *testing.T, script string, timeout time.Duration, stderr *strings.Builder) *Client {
	t.Helper()
	if stderr == nil {
		stderr = &strings.Builder{}
	}
	c, err := New(Options{Argv: []string{"/bin/sh", "-c", script}, Env: []string{"PATH=" + os.Getenv("PATH")},
		Timeout: timeout, Stderr: stderr})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close(time.Second) })
	return c
}

func apply(operationID, body, mode string) map[string]any {
	return map[string]any{
		"op": "apply", "operation_id": operationID, "title": "title", "mode": mode, "body": body,
		"state": map[string]any{"v": 1, "operation_id": operationID, "nonce": "661eed17995cd1b77e6812a2fd567408",
			"issued_at": now, "authority_expires_at": now + 300, "replay_expires_at": now + 360},
		"responses": map[string]any{"body": map[string]any{"_meta": nil, "action": "accept", "content": map[string]any{"body": body}}},
	}
}

func result(t *testing.T, a Answer, err error) map[string]any {
	t.Helper()
	if err != nil || !a.OK {
		t.Fatalf("not ok: %+v %v", a, err)
	}
	var m map[string]any
	if err := json.Unmarshal(a.Result, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func machineryFailure(t *testing.T, err error) string {
	t.Helper()
	var f *MachineryFailure
	if !errors.As(err, &f) {
		t.Fatalf("want a machinery failure, got %v", err)
	}
	return f.Message
}

func TestOneChildServesApplyReplayConflictAndStatus(t *testing.T) {
	b := realBridge(t, nil)
	b.Start()
	pid := b.Pid()
	a, err := b.Call(apply("bc-1", "alpha", "atomic"))
	first := result(t, a, err)
	if first["operationId"] != "bc-1" || first["replayed"] != false || first["state"] != "applied" || first["effectId"] != 1.0 {
		t.Fatalf("%v", first)
	}
	a, err = b.Call(apply("bc-1", "alpha", "atomic"))
	if result(t, a, err)["replayed"] != true {
		t.Fatal("not replayed")
	}
	if a, err = b.Call(apply("bc-1", "beta", "atomic")); err != nil || a.OK || a.Error != "operation_conflict" {
		t.Fatalf("%+v %v", a, err)
	}
	if a, err = b.Call(map[string]any{"op": "status", "operation_id": "bc-1", "principal": "bob"}); err != nil || a.Error != "invalid_application_request" {
		t.Fatalf("%+v %v", a, err)
	}
	a, err = b.Call(map[string]any{"op": "status", "operation_id": "bc-1"})
	if result(t, a, err)["state"] != "applied" || b.Pid() != pid || b.Spawned() != 1 {
		t.Fatal("status or child")
	}
}

func TestConcurrentCallsEachGetTheirOwnAnswer(t *testing.T) {
	b := realBridge(t, nil)
	type got struct {
		id string
		m  map[string]any
	}
	out := make(chan got, 20)
	for i := range 20 {
		id := "bc-many-" + string(rune('a'+i))
		go func() {
			a, err := b.Call(apply(id, "body "+id, "atomic"))
			var m map[string]any
			if err == nil {
				_ = json.Unmarshal(a.Result, &m)
			}
			out <- got{id, m}
		}()
	}
	for range 20 {
		g := <-out
		if g.m["operationId"] != g.id {
			t.Errorf("%s got %v", g.id, g.m)
		}
	}
	if b.Spawned() != 1 {
		t.Fatalf("%d children", b.Spawned())
	}
}

func TestAChildThatDiesMidCallFailsThatCallAndIsReplaced(t *testing.T) {
	b := realBridge(t, map[string]string{"WIRE_FAULT": "exit-after-ledger-insert"})
	_, err := b.Call(apply("bc-fault", "alpha", "atomic"))
	if msg := machineryFailure(t, err); !strings.HasPrefix(msg, "bridge machinery failure: 71; ") {
		t.Fatal(msg)
	}
	a, err := b.Call(map[string]any{"op": "status", "operation_id": "bc-fault"})
	if result(t, a, err)["state"] != "unknown" || b.Spawned() != 2 {
		t.Fatal("status after the cut")
	}
}

func TestThePartialCutFailsWith73(t *testing.T) {
	b := realBridge(t, map[string]string{"WIRE_FAULT": "exit-after-partial-first-commit"})
	_, err := b.Call(apply("bc-partial", "alpha", "partial"))
	if msg := machineryFailure(t, err); !strings.HasPrefix(msg, "bridge machinery failure: 73; ") {
		t.Fatal(msg)
	}
	a, err := b.Call(map[string]any{"op": "status", "operation_id": "bc-partial"})
	status := result(t, a, err)
	if status["state"] != "unknown" || !strings.Contains(status["detail"].(string), "in_progress") {
		t.Fatalf("%v", status)
	}
}

func TestAChildKilledWhileIdleIsReplaced(t *testing.T) {
	b := realBridge(t, nil)
	call(t, b, map[string]any{"op": "status", "operation_id": "x"})
	pid, exited := b.Pid(), b.ChildExit()
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	if how := <-exited; how != "SIGKILL" {
		t.Fatalf("exit seen as %q", how)
	}
	call(t, b, map[string]any{"op": "status", "operation_id": "x"})
	if b.Pid() == pid || b.Spawned() != 2 {
		t.Fatal("not replaced")
	}
}

func call(t *testing.T, b *Client, req any) map[string]any {
	t.Helper()
	a, err := b.Call(req)
	return result(t, a, err)
}

func TestTheLastStderrLineIsPartOfTheFailure(t *testing.T) {
	var forwarded strings.Builder
	b := standIn(t, `read l; printf 'first\n%0300d\nlast words\n' 0 >&2; exit 3`, 30*time.Second, &forwarded)
	_, err := b.Call(map[string]any{"op": "status", "operation_id": "x"})
	if msg := machineryFailure(t, err); msg != "bridge machinery failure: 3; last words" {
		t.Fatal(msg)
	}
	if !strings.Contains(forwarded.String(), "first\n") {
		t.Fatal("stderr not forwarded")
	}
	long := standIn(t, `read l; printf '%0300d' 0 >&2; exit 4`, 30*time.Second, nil)
	_, err = long.Call(map[string]any{})
	if msg := machineryFailure(t, err); msg != "bridge machinery failure: 4; "+strings.Repeat("0", 160) {
		t.Fatal(msg)
	}
}

func TestAnAnswerThatIsNotABridgeReplyReplacesTheChild(t *testing.T) {
	b := standIn(t, `while read l; do case "$l" in *bad*) echo 'not json';; *) echo '{"ok":true,"result":{"n":1}}';; esac; done`, 30*time.Second, nil)
	_, err := b.Call(map[string]any{"bad": true})
	if msg := machineryFailure(t, err); msg != "bridge machinery failure: invalid reply; " {
		t.Fatal(msg)
	}
	if r := call(t, b, map[string]any{}); r["n"] != 1.0 || b.Spawned() != 2 {
		t.Fatal("not replaced")
	}
	for _, reply := range []string{`{"ok":"yes"}`, `{"ok":true,"result":[]}`, `{"ok":false,"error":1,"detail":"d"}`, `[]`} {
		odd := standIn(t, `read l; echo '`+reply+`'`, 30*time.Second, nil)
		_, err := odd.Call(map[string]any{})
		if msg := machineryFailure(t, err); msg != "bridge machinery failure: invalid reply; " {
			t.Fatalf("%s: %s", reply, msg)
		}
	}
}

func TestSilencePastTheTimeoutKillsTheChild(t *testing.T) {
	b := standIn(t, `while read l; do case "$l" in *silent*) ;; *) echo '{"ok":true,"result":{}}';; esac; done`, 2*time.Second, nil)
	started := time.Now()
	_, err := b.Call(map[string]any{"silent": true})
	if msg := machineryFailure(t, err); msg != "bridge machinery failure: no reply within 2000 ms; " {
		t.Fatal(msg)
	}
	if time.Since(started) > 6*time.Second {
		t.Fatal("too slow")
	}
	call(t, b, map[string]any{})
	if b.Spawned() != 2 {
		t.Fatal("not replaced")
	}
}

func TestUnaskedOutputKillsTheChild(t *testing.T) {
	// The first child speaks before it is asked; the second only answers.
	once := filepath.Join(t.TempDir(), "once")
	b := standIn(t, `if [ ! -e '`+once+`' ]; then : > '`+once+`'; echo '{"ok":true,"result":{}}'; fi; while read l; do echo '{"ok":true,"result":{"late":1}}'; done`, 5*time.Second, nil)
	b.Start()
	<-b.ChildExit()
	if r := call(t, b, map[string]any{}); r["late"] != 1.0 || b.Spawned() != 2 {
		t.Fatalf("%v %d", r, b.Spawned())
	}
}

func TestACommandThatCannotStartFailsTheCall(t *testing.T) {
	b, _ := New(Options{Argv: []string{"/nonexistent/java"}, Stderr: &strings.Builder{}})
	_, err := b.Call(map[string]any{})
	if msg := machineryFailure(t, err); !regexp.MustCompile(`^bridge machinery failure: .*/nonexistent/java.*; $`).MatchString(msg) {
		t.Fatal(msg)
	}
	b.Close(time.Second)
}

func TestTheChildSeesOnlyTheAllowlistedEnvironment(t *testing.T) {
	set := map[string]string{"PATH": "/bin", "WIRE_FINGERPRINT_KEY_HEX": "k", "WIRE_STATE_KEY_HEX": "s",
		"WIRE_REQUEST_STATE_TTL": "1", "SECRET": "x", "HOME": "/h"}
	env := Environment(func(name string) (string, bool) { v, ok := set[name]; return v, ok })
	slices.Sort(env)
	if strings.Join(env, ",") != "HOME=/h,PATH=/bin,WIRE_FINGERPRINT_KEY_HEX=k" {
		t.Fatal(env)
	}
}

func TestTheChildGetsThePostgresLedgerVariables(t *testing.T) {
	set := map[string]string{"WIRE_LEDGER_URL": "jdbc:postgresql://127.0.0.1/l", "WIRE_LEDGER_USER": "lab",
		"WIRE_LEDGER_PASSWORD_FILE": "/tmp/p", "WIRE_LEDGER_PASSWORD": "pw", "WIRE_STATE_KEY_HEX": "s"}
	env := Environment(func(name string) (string, bool) { v, ok := set[name]; return v, ok })
	slices.Sort(env)
	if strings.Join(env, ",") != "WIRE_LEDGER_PASSWORD=pw,WIRE_LEDGER_PASSWORD_FILE=/tmp/p,"+
		"WIRE_LEDGER_URL=jdbc:postgresql://127.0.0.1/l,WIRE_LEDGER_USER=lab" {
		t.Fatal(env)
	}
}

func TestCloseEndsTheChildAndLaterCallsFail(t *testing.T) {
	b := realBridge(t, nil)
	call(t, b, map[string]any{"op": "status", "operation_id": "x"})
	exited := b.ChildExit()
	b.Close(30 * time.Second)
	if how := <-exited; how != "0" {
		t.Fatalf("exit %q", how)
	}
	_, err := b.Call(map[string]any{"op": "status", "operation_id": "x"})
	if msg := machineryFailure(t, err); msg != "bridge machinery failure: bridge closed; " {
		t.Fatal(msg)
	}
}

func TestBridgeCommand(t *testing.T) {
	get := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	argv, _ := Command("/repo", get(map[string]string{"JAVA_HOME": "/jdk"}))
	want := []string{"/jdk/bin/java", "-Xlog:disable", "-Xlog:all=warning:stderr", "-XX:+DisplayVMOutputToStderr",
		"-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx64m", "-XX:-UsePerfData", "-jar", "/repo/bridge/target/bridge.jar"}
	if !slices.Equal(argv, want) {
		t.Fatal(argv)
	}
	if argv, _ := Command("/repo", get(nil)); argv[0] != "java" {
		t.Fatal(argv)
	}
	if argv, err := Command("/repo", get(map[string]string{CommandVariable: `["a","b"]`})); err != nil || !slices.Equal(argv, []string{"a", "b"}) {
		t.Fatal(argv, err)
	}
	for _, bad := range []string{`[]`, `"java"`, `[1]`, `[""]`, `not json`, `{"a":1}`} {
		if _, err := Command("/repo", get(map[string]string{CommandVariable: bad})); err != ErrCommand {
			t.Errorf("%s: %v", bad, err)
		}
	}
}

func TestJVMOptionsAreTheSharedTable(t *testing.T) {
	for name, constant := range map[string][]string{"stdio-jvm-options.json": StdioJVMOptions, "case-jvm-options.json": CaseJVMOptions} {
		table, err := ruletable.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		var options []string
		for _, o := range table.Root["options"].([]any) {
			options = append(options, o.(string))
		}
		if !slices.Equal(options, constant) {
			t.Fatalf("%s: %v, table %v", name, constant, options)
		}
	}
}
