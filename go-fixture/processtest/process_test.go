// Package processtest runs the fixture binary as a real process over real stdio, with the real bridge
// (bridge/target/bridge.jar) and a real SQLite file, as the lab's runner does.
package processtest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"lab.continuationreplay/gofixture/internal/bridge"
	"lab.continuationreplay/gofixture/internal/repo"
)

var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "go-fixture-process-")
	if err != nil {
		panic(err)
	}
	binary = filepath.Join(dir, "go-fixture")
	// Built into the repository's tree? No: a temporary copy would not find the bridge jar above it, so the
	// tests pass LAB_BRIDGE_COMMAND with the default command's argv.
	build := exec.Command("go", "build", "-o", binary, "../cmd/go-fixture")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		panic(err)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

const envelope = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{}}}`

// fixture is one server process and its pipes.
type fixture struct {
	t      *testing.T
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan string
	stderr *strings.Builder
	exited chan int
}

func bridgeCommand(t *testing.T) string {
	root, err := repo.BuiltBridge()
	if err != nil {
		t.Fatal(err)
	}
	argv, _ := json.Marshal(bridge.DefaultCommand(root, os.Getenv))
	return string(argv)
}

func start(t *testing.T, db string, fault string) *fixture {
	t.Helper()
	cmd := exec.Command(binary)
	cmd.Env = []string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME"), "JAVA_HOME=" + os.Getenv("JAVA_HOME"),
		"WIRE_SERVER_DB=" + db, "WIRE_BACKEND_ID=sqlite:guarded-matrix", "WIRE_PRINCIPAL=alice",
		"WIRE_CLOCK_EPOCH=1790035200", "WIRE_AUTHORITY_TTL=300", "WIRE_REPLAY_RETENTION_TTL=360", "WIRE_REQUEST_STATE_TTL=600",
		"WIRE_STATE_KEY_HEX=8cac6b8c4ec375b861c294c1e49f902e5beb661a50b9cb3323c4ae30eb0d7dfc",
		"WIRE_FINGERPRINT_KEY_HEX=8c0aed9f1ff0487480b140421d28d2e49f5a61b8f1837dab9304a6d126f7adba",
		"WIRE_FAULT=" + fault, "LAB_BRIDGE_COMMAND=" + bridgeCommand(t),
	}
	f := &fixture{t: t, cmd: cmd, lines: make(chan string, 64), stderr: &strings.Builder{}, exited: make(chan int, 1)}
	cmd.Stderr = f.stderr
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	f.stdin = stdin
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		s := bufio.NewScanner(stdout)
		s.Buffer(make([]byte, 1<<20), 1<<24)
		for s.Scan() {
			f.lines <- s.Text()
		}
		close(f.lines)
		_ = cmd.Wait()
		f.exited <- cmd.ProcessState.ExitCode()
	}()
	t.Cleanup(func() {
		_ = f.stdin.Close()
		select {
		case <-f.exited:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
		}
		if t.Failed() {
			t.Logf("fixture stderr:\n%s", f.stderr.String())
		}
	})
	return f
}

func (f *fixture) send(line string) {
	f.t.Helper()
	if _, err := io.WriteString(f.stdin, line+"\n"); err != nil {
		f.t.Fatal(err)
	}
}

// reply waits for the next line on stdout (the bridge's JVM may take a few seconds to start).
func (f *fixture) reply() map[string]any {
	f.t.Helper()
	select {
	case line, ok := <-f.lines:
		if !ok {
			f.t.Fatalf("stdout closed; stderr:\n%s", f.stderr.String())
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			f.t.Fatalf("not JSON on stdout: %q", line)
		}
		return m
	case <-time.After(60 * time.Second):
		f.t.Fatalf("no reply within 60 s; stderr:\n%s", f.stderr.String())
	}
	return nil
}

func call(id int, tool, args, extra string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{%s,"name":%q,"arguments":%s%s}}`, id, envelope, tool, args, extra)
}

func continuation(body, state string) string {
	return fmt.Sprintf(`,"inputResponses":{"body":{"action":"accept","content":{"body":%q}}},"requestState":%q`, body, state)
}

func result(t *testing.T, reply map[string]any, id int) map[string]any {
	t.Helper()
	if reply["id"] != float64(id) {
		t.Fatalf("reply for %v, want %d: %v", reply["id"], id, reply)
	}
	r, ok := reply["result"].(map[string]any)
	if !ok {
		t.Fatalf("no result: %v", reply)
	}
	return r
}

func structured(t *testing.T, r map[string]any) map[string]any {
	t.Helper()
	if r["resultType"] != "complete" || r["isError"] == true {
		t.Fatalf("not a complete result: %v", r)
	}
	return r["structuredContent"].(map[string]any)
}

func firstRound(t *testing.T, f *fixture, id int, args string) string {
	t.Helper()
	f.send(call(id, "create_guarded_issue", args, ""))
	r := result(t, f.reply(), id)
	if r["resultType"] != "input_required" {
		t.Fatalf("round one: %v", r)
	}
	body := r["inputRequests"].(map[string]any)["body"].(map[string]any)
	if body["method"] != "elicitation/create" {
		t.Fatalf("input request %v", body)
	}
	return r["requestState"].(string)
}

// The binary, a copy outside the repository, lists the shared table's tools member for member: it carries the
// table (go:embed) rather than reading it from beside itself.
func TestToolsListIsTheSharedTable(t *testing.T) {
	f := start(t, filepath.Join(t.TempDir(), "store.sqlite3"), "")
	f.send(`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{` + envelope + `}}`)
	listed := result(t, f.reply(), 1)["tools"]
	text, err := repo.SharedRuleFile("tools.json")
	if err != nil {
		t.Fatal(err)
	}
	var table map[string]any
	if err := json.Unmarshal(text, &table); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(listed, table["guarded"]) {
		t.Fatalf("tools/list: %v\nvectors/rules/tools.json: %v", listed, table["guarded"])
	}
}

func TestTwoRoundGuardedCallCommitsOnceAndReplaysExactly(t *testing.T) {
	db := filepath.Join(t.TempDir(), "store.sqlite3")
	f := start(t, db, "")
	args := `{"operation_id":"p-1","title":"guarded-01"}`
	state := firstRound(t, f, 1, args)
	f.send(call(2, "create_guarded_issue", args, continuation("alpha", state)))
	applied := structured(t, result(t, f.reply(), 2))
	if applied["replayed"] != false || applied["state"] != "applied" || applied["result"] != "created 1" {
		t.Fatalf("%v", applied)
	}
	f.send(call(3, "create_guarded_issue", args, continuation("alpha", state)))
	if replay := structured(t, result(t, f.reply(), 3)); replay["replayed"] != true || replay["effectId"] != applied["effectId"] {
		t.Fatalf("exact replay: %v", replay)
	}
	f.send(call(4, "get_operation_status", `{"operation_id":"p-1"}`, ""))
	if status := structured(t, result(t, f.reply(), 4)); status["state"] != "applied" || status["storedResult"] != "created 1" {
		t.Fatalf("status: %v", status)
	}
	if info, err := os.Stat(db); err != nil || info.Size() == 0 {
		t.Fatalf("the SQLite file: %v", err)
	}
}

func TestALostReplyIsRecoveredByStatus(t *testing.T) {
	db := filepath.Join(t.TempDir(), "store.sqlite3")
	args := `{"operation_id":"p-lost","title":"guarded-03"}`
	f := start(t, db, "drop-after-commit")
	state := firstRound(t, f, 1, args)
	f.send(call(2, "create_guarded_issue", args, continuation("alpha", state)))
	select {
	case line, ok := <-f.lines:
		if ok {
			t.Fatalf("a reply came after drop-after-commit: %s", line)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("the fixture neither replied nor exited")
	}
	if code := <-f.exited; code != 70 {
		t.Fatalf("exit %d, want 70", code)
	}
	f.exited <- 70 // for the cleanup
	if !strings.Contains(f.stderr.String(), "drop-after-commit: the effect is committed") {
		t.Fatalf("stderr: %s", f.stderr.String())
	}

	// A new process on the same ledger: the authoritative read-back finds the effect, and the exact replay of the
	// same continuation returns the stored result without a second effect.
	g := start(t, db, "")
	g.send(call(1, "get_operation_status", `{"operation_id":"p-lost"}`, ""))
	if status := structured(t, result(t, g.reply(), 1)); status["state"] != "applied" || status["storedResult"] != "created 1" {
		t.Fatalf("status after the lost reply: %v", status)
	}
	g.send(call(2, "create_guarded_issue", args, continuation("alpha", state)))
	if replay := structured(t, result(t, g.reply(), 2)); replay["replayed"] != true || replay["result"] != "created 1" {
		t.Fatalf("replay after the lost reply: %v", replay)
	}
}

func TestBadInputIsRefusedWithoutAnEffect(t *testing.T) {
	db := filepath.Join(t.TempDir(), "store.sqlite3")
	f := start(t, db, "")
	args := `{"operation_id":"p-bad","title":"guarded-05"}`
	state := firstRound(t, f, 1, args)
	stateRefusal := map[string]any{"code": -32602.0, "message": "Invalid or expired requestState",
		"data": map[string]any{"reason": "invalid_request_state"}}
	tampered := state[:len(state)-2] + map[bool]string{true: "AA", false: "AE"}[!strings.HasSuffix(state, "AA")]
	for id, line := range map[int]string{
		2: call(2, "create_guarded_issue", args, continuation("alpha", tampered)),
		3: call(3, "create_guarded_issue", `{"operation_id":"p-bad","title":"changed"}`, continuation("alpha", state)),
		4: call(4, "create_guarded_issue", args, continuation("alpha", "v1.forged.state")),
		5: call(5, "create_guarded_issue", args, `,"inputResponses":{"body":{"action":"accept","content":{"body":"a"}}},"requestState":7`),
	} {
		f.send(line)
		reply := f.reply()
		if reply["id"] != float64(id) || fmt.Sprint(reply["error"]) != fmt.Sprint(stateRefusal) {
			t.Errorf("%d: %v", id, reply)
		}
	}
	f.send(call(6, "create_guarded_issue", args, `,"inputResponses":{"body":{"action":"decline"}},"requestState":"`+state+`"`))
	r := result(t, f.reply(), 6)
	content := r["content"].([]any)[0].(map[string]any)
	if r["isError"] != true || content["text"] != "body response must be accepted text" {
		t.Fatalf("declined body: %v", r)
	}
	f.send(call(7, "create_guarded_issue", `{"operation_id":"p-bad","title":"guarded-05","mode":"bulk"}`, ""))
	if r := result(t, f.reply(), 7); r["isError"] != true {
		t.Fatalf("bad mode: %v", r)
	}
	f.send(call(8, "get_operation_status", `{"operation_id":"p-bad"}`, ""))
	if status := structured(t, result(t, f.reply(), 8)); status["state"] == "applied" {
		t.Fatalf("an effect from refused input: %v", status)
	}
	// A requestState sent to the single-round status tool is refused, never ignored (lab faults, token-attacks):
	// a valid create_guarded_issue state, a string that was never a state, and null (the frame gate's rule).
	for id, extra := range map[int]string{10: `,"requestState":"` + state + `"`, 11: `,"requestState":"anything"`,
		12: `,"requestState":null`} {
		f.send(call(id, "get_operation_status", `{"operation_id":"p-bad"}`, extra))
		if reply := f.reply(); reply["id"] != float64(id) || fmt.Sprint(reply["error"]) != fmt.Sprint(stateRefusal) {
			t.Errorf("status with a requestState, %d: %v", id, reply)
		}
	}
	// Garbage on the wire is answered and the session goes on.
	f.send("garbage")
	if reply := f.reply(); fmt.Sprint(reply["error"]) != fmt.Sprint(map[string]any{"code": -32700.0, "message": "Parse error"}) {
		t.Fatalf("garbage: %v", reply)
	}
	f.send(call(9, "get_operation_status", `{"operation_id":"p-bad"}`, ""))
	structured(t, result(t, f.reply(), 9))
}

// The SDK decodes an envelope into a struct, member by member: a repeated member whose first value has another type
// ended the session and the process (lab faults, full wire fuzz: `"jsonrpc":[]` before `"jsonrpc":"2.0"`). Each
// such request is answered as the gate read it (the last value), and the process goes on serving.
func TestRepeatedMembersAreAnsweredAsTheGateReadThem(t *testing.T) {
	f := start(t, filepath.Join(t.TempDir(), "store.sqlite3"), "")
	list := func(id int, before, inParams string) string {
		return fmt.Sprintf(`{%s"jsonrpc":"2.0","id":%d,"method":"tools/list","params":{%s%s}}`, before, id, envelope, inParams)
	}
	lines := map[int]string{
		31: list(31, `"jsonrpc":[],`, ""),
		32: list(32, `"jsonrpc":414674.07705018047,`, ""),
		33: list(33, `"jsonrpc":true,`, ""),
		34: list(34, `"jsonrpc":{},`, ""),
		35: list(35, `"id":[],`, ""),
		36: list(36, `"method":7,`, ""),
		37: list(37, `"params":[],`, ""),
	}
	for id := 31; id <= 37; id++ {
		f.send(lines[id])
		reply := f.reply()
		r := result(t, reply, id)
		if tools, ok := r["tools"].([]any); !ok || len(tools) == 0 {
			t.Errorf("%d: not the tool list: %v", id, reply)
		}
	}
	f.send(call(38, "get_operation_status", `{"operation_id":"still-serving"}`, `,"requestState":5,"requestState":"v1.forged"`))
	if reply := f.reply(); reply["id"] != 38.0 || fmt.Sprint(reply["error"]) != fmt.Sprint(map[string]any{"code": -32602.0,
		"message": "Invalid or expired requestState", "data": map[string]any{"reason": "invalid_request_state"}}) {
		t.Errorf("a repeated requestState: %v", reply)
	}
	// A null name after the tool's name: the SDK keeps a field on null, so the continuation ran; now the SDK reads
	// the null the gate read and refuses the call, without an effect.
	state := firstRound(t, f, 40, `{"operation_id":"null-name","title":"t"}`)
	f.send(strings.Replace(call(41, "create_guarded_issue", `{"operation_id":"null-name","title":"t"}`, continuation("a", state)),
		`"name":"create_guarded_issue"`, `"name":"create_guarded_issue","name":null`, 1))
	if reply := f.reply(); reply["id"] != 41.0 || (reply["error"] == nil && reply["result"].(map[string]any)["isError"] != true) {
		t.Errorf("a null name after the tool's: %v", reply)
	}
	f.send(call(42, "get_operation_status", `{"operation_id":"null-name"}`, ""))
	if status := structured(t, result(t, f.reply(), 42)); status["state"] == "applied" {
		t.Errorf("an effect from a call whose name was null: %v", status)
	}
	f.send(call(39, "get_operation_status", `{"operation_id":"still-serving"}`, ""))
	structured(t, result(t, f.reply(), 39))
}
