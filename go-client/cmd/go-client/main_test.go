package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var binary string

// TestMain builds the driver once: the exit statuses and stderr lines are the process's, so they are tested on one.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "go-client-test")
	if err != nil {
		panic(err)
	}
	binary = filepath.Join(dir, "go-client")
	if out, err := exec.Command("go", "build", "-o", binary, ".").CombinedOutput(); err != nil {
		panic(string(out))
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func drive(t *testing.T, script string, env ...string) (int, string, string) {
	t.Helper()
	dir := t.TempDir()
	scriptFile := filepath.Join(dir, "script.json")
	if err := os.WriteFile(scriptFile, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	records := filepath.Join(dir, "records.jsonl")
	command := exec.Command(binary, scriptFile, records)
	command.Env = append(os.Environ(), env...)
	var stderr, stdout strings.Builder
	command.Stderr, command.Stdout = &stderr, &stdout
	err := command.Run()
	status := 0
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		status = exit.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	if stdout.Len() != 0 {
		t.Errorf("stdout is unused, got %q", stdout.String())
	}
	return status, stderr.String(), records
}

func TestABadScriptExits2AndStartsNothing(t *testing.T) {
	marker := filepath.Join(t.TempDir(), "started")
	script := `{"format":"client-script/1","servers":{"srv":{"command":["touch","` + marker + `"]}},"request_timeout_ms":3000,` +
		`"version_mode":"pin","steps":[{"op":"connect","connection":"a","server":"srv"},{"op":"close","connection":"b"}]}`
	status, stderr, records := drive(t, script)
	if status != 2 || strings.TrimSpace(stderr) != `script error: step 1 (close): connection "b" is used before it is connected` {
		t.Fatalf("exit %d, stderr %q", status, stderr)
	}
	for _, path := range []string{records, marker} {
		if _, err := os.Stat(path); err == nil {
			t.Fatalf("%s exists after a refused script", path)
		}
	}
}

func TestUsageAndAnUnreadableScriptExit2(t *testing.T) {
	out, err := exec.Command(binary).CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 2 || !strings.Contains(string(out), "usage:") {
		t.Fatalf("no arguments: %v %s", err, out)
	}
	missing := filepath.Join(t.TempDir(), "none.json")
	out, err = exec.Command(binary, missing, filepath.Join(t.TempDir(), "r")).CombinedOutput()
	if !errors.As(err, &exit) || exit.ExitCode() != 2 || !strings.HasPrefix(string(out), "script error: cannot read") {
		t.Fatalf("missing script: %v %s", err, out)
	}
}

func TestARefusedHTTPEntrySendsNoRequest(t *testing.T) {
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer listener.Close()
	script := `{"format":"client-script/1","servers":{"web":{"url":"http://` + listener.Addr().String() + `/mcp",` +
		`"bearer_token_env":"LAB_SHORT_TOKEN"}},"request_timeout_ms":3000,"version_mode":"pin",` +
		`"steps":[{"op":"connect","connection":"a","server":"web"}]}`
	status, stderr, _ := drive(t, script, "LAB_SHORT_TOKEN=xxxxxxxx")
	if status != 2 || !strings.Contains(stderr, "holds a token shorter than 32 characters") || strings.Contains(stderr, "xxxxxxxx") {
		t.Fatalf("exit %d, stderr %q", status, stderr)
	}
	accepted := make(chan error, 1)
	go func() {
		conn, err := listener.Accept()
		if err == nil {
			conn.Close()
		}
		accepted <- err
	}()
	select {
	case err := <-accepted:
		if err == nil {
			t.Fatal("the driver connected although its script was refused")
		}
	case <-time.After(300 * time.Millisecond):
	}
}

func TestAFailedConnectIsRecordedAndLaterStepsAreNotRunnable(t *testing.T) {
	script := `{"format":"client-script/1","servers":{"srv":{"command":["` + filepath.Join(t.TempDir(), "no-such-server") + `"]}},` +
		`"request_timeout_ms":3000,"version_mode":"pin","steps":[{"op":"connect","connection":"a","server":"srv"},` +
		`{"op":"call","connection":"a","tool":"t","arguments":{},"answer":{"body":"alpha"}},{"op":"close","connection":"a"}]}`
	status, stderr, records := drive(t, script)
	if status != 0 {
		t.Fatalf("exit %d: %s", status, stderr)
	}
	file, err := os.Open(records)
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	var got []map[string]any
	lines := bufio.NewScanner(file)
	for lines.Scan() {
		var record map[string]any
		if err := json.Unmarshal(lines.Bytes(), &record); err != nil {
			t.Fatal(err)
		}
		got = append(got, record)
	}
	if len(got) != 3 || got[0]["outcome"] != "threw" || got[0]["transport"] != "stdio" || got[0]["client"] != "go" {
		t.Fatalf("records %v", got)
	}
	if got[0]["sdk_version"] != "v1.8.0" {
		t.Fatalf("sdk_version %v (the binary's build information names the linked SDK)", got[0]["sdk_version"])
	}
	for _, later := range got[1:] {
		threw, _ := later["threw"].(map[string]any)
		if later["outcome"] != "threw" || threw["type"] != "StepNotRunnable" {
			t.Fatalf("a step after a failed connect: %v", later)
		}
	}
	if _, has := got[1]["transport"]; has {
		t.Fatal("only a connect record names its transport")
	}
}
