// Package bridge is the fixture's side of the JSON line bridge (docs/typescript-fixture.md, "The bridge"): ONE
// long-lived bridge child, calls serialised (one line written, one line read), a new child after any machinery
// failure. A machinery failure (the child died, answered something that is not a bridge reply, or did not answer
// in time) is a *MachineryFailure naming the exit status or signal and the child's last stderr line; the
// bridge's own application errors are ordinary answers. The same protocol and messages as
// ts-fixture/src/bridge-client.ts.
package bridge

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// DefaultTimeout is how long one call waits for its answer.
const DefaultTimeout = 8 * time.Second

const (
	maxStderrNote = 160
	maxReplyBytes = 1 << 20
)

// Answer is one bridge reply: Result when OK, else Error (the kind) and Detail.
type Answer struct {
	OK     bool
	Result json.RawMessage
	Error  string
	Detail string
}

// MachineryFailure is the bridge process failing, not the bridge refusing.
type MachineryFailure struct{ Message string }

func (e *MachineryFailure) Error() string { return e.Message }

// Options configure a Client.
type Options struct {
	Argv    []string
	Env     []string
	Timeout time.Duration
	// Stderr receives the child's stderr (the fixture's own stderr by default).
	Stderr io.Writer
}

// Client serialises calls to one child at a time.
type Client struct {
	opts    Options
	mu      sync.Mutex // one exchange at a time, in call order
	child   *child
	closed  bool
	spawned int
}

// New checks the options; the child starts on Start or the first call.
func New(opts Options) (*Client, error) {
	if len(opts.Argv) == 0 {
		return nil, errors.New("the bridge command is empty")
	}
	if opts.Timeout == 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.Stderr == nil {
		opts.Stderr = os.Stderr
	}
	return &Client{opts: opts}, nil
}

// Start starts the child now rather than on the first call, so the JVM warms up while the client connects.
func (c *Client) Start() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.closed {
		c.current()
	}
}

// Spawned is how many children were started so far.
func (c *Client) Spawned() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.spawned
}

// Pid is the current child's pid, or 0.
func (c *Client) Pid() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.child == nil || c.child.cmd.Process == nil {
		return 0
	}
	return c.child.cmd.Process.Pid
}

// ChildExit is closed with the current child's end (its status or signal, as a failure would name it) once the
// client has seen the exit; nil while no child is running.
func (c *Client) ChildExit() <-chan string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.child == nil {
		return nil
	}
	return c.child.exitNotice
}

// Call sends one request and returns the answer, or a *MachineryFailure.
func (c *Client) Call(request any) (Answer, error) {
	line, err := json.Marshal(request)
	if err != nil {
		return Answer{}, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return Answer{}, &MachineryFailure{"bridge machinery failure: bridge closed; "}
	}
	ch := c.current()
	reply, err := ch.exchange(append(line, '\n'), c.opts.Timeout)
	if err == nil {
		answer, ok := ReadAnswer(reply)
		if ok {
			return answer, nil
		}
		err = ch.failure("invalid reply")
	}
	ch.kill()
	if c.child == ch {
		c.child = nil
	}
	return Answer{}, err
}

// Close ends the child's input (the bridge exits at end of input) and kills it if it has not exited after grace.
func (c *Client) Close(grace time.Duration) {
	c.mu.Lock()
	c.closed = true
	ch := c.child
	c.child = nil
	c.mu.Unlock()
	if ch != nil {
		ch.end(grace)
	}
}

func (c *Client) current() *child {
	if c.child == nil || c.child.exited() {
		c.child = startChild(c.opts)
		c.spawned++
	}
	return c.child
}

// child is one bridge process and its pipes.
type child struct {
	cmd        *exec.Cmd
	stdin      io.WriteCloser
	lines      chan []byte // replies, or nil when the reply was too long
	mu         sync.Mutex
	pending    bool
	lastStderr string
	death      string
	dead       chan struct{}
	exitNotice chan string
}

func startChild(opts Options) *child {
	ch := &child{lines: make(chan []byte, 1), dead: make(chan struct{}), exitNotice: make(chan string, 1)}
	ch.cmd = exec.Command(opts.Argv[0], opts.Argv[1:]...)
	ch.cmd.Env = opts.Env
	if ch.cmd.Env == nil {
		ch.cmd.Env = []string{}
	}
	stdin, errIn := ch.cmd.StdinPipe()
	stdout, errOut := ch.cmd.StdoutPipe()
	stderr, errErr := ch.cmd.StderrPipe()
	ch.stdin = stdin
	if err := errors.Join(errIn, errOut, errErr); err != nil {
		ch.died(err.Error())
		return ch
	}
	if err := ch.cmd.Start(); err != nil {
		ch.died(err.Error())
		return ch
	}
	var readers sync.WaitGroup
	readers.Add(2)
	go func() { defer readers.Done(); ch.readStdout(stdout) }()
	go func() { defer readers.Done(); ch.readStderr(stderr, opts.Stderr) }()
	go func() {
		readers.Wait() // both pipes drained, so the last stderr line is known
		err := ch.cmd.Wait()
		ch.died(exitDescription(ch.cmd.ProcessState, err))
	}()
	return ch
}

// exitDescription is "71" for an exit status, "SIGKILL" for a signal, as the TypeScript client names them.
func exitDescription(state *os.ProcessState, err error) string {
	if state != nil {
		if ws, ok := state.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return signalName(ws.Signal())
		}
		return strconv.Itoa(state.ExitCode())
	}
	if err != nil {
		return err.Error()
	}
	return "unknown"
}

// signalName is the conventional name of the signals a bridge dies of, as node reports them.
func signalName(s syscall.Signal) string {
	names := map[syscall.Signal]string{syscall.SIGKILL: "SIGKILL", syscall.SIGTERM: "SIGTERM", syscall.SIGINT: "SIGINT",
		syscall.SIGSEGV: "SIGSEGV", syscall.SIGABRT: "SIGABRT", syscall.SIGBUS: "SIGBUS", syscall.SIGPIPE: "SIGPIPE",
		syscall.SIGHUP: "SIGHUP", syscall.SIGQUIT: "SIGQUIT"}
	if name, ok := names[s]; ok {
		return name
	}
	return fmt.Sprintf("signal %d", int(s))
}

func (ch *child) readStdout(r io.Reader) {
	reader := bufio.NewReaderSize(r, 64*1024)
	for {
		line, err := readBoundedLine(reader, maxReplyBytes)
		if err == errTooLong {
			ch.deliver(nil)
			return
		}
		if err != nil {
			return
		}
		if !ch.deliver(line) {
			return
		}
	}
}

var errTooLong = errors.New("too long")

func readBoundedLine(r *bufio.Reader, max int) ([]byte, error) {
	var buf []byte
	for {
		chunk, err := r.ReadSlice('\n')
		buf = append(buf, chunk...)
		if len(buf) > max+1 {
			return nil, errTooLong
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			return nil, err
		}
		return bytes.TrimSuffix(buf, []byte("\n")), nil
	}
}

// deliver hands a reply to the waiting call; output nobody asked for means the line protocol is out of step, so
// the child cannot be trusted any more.
func (ch *child) deliver(line []byte) bool {
	ch.mu.Lock()
	waiting := ch.pending
	ch.pending = false
	ch.mu.Unlock()
	if !waiting {
		ch.kill()
		return false
	}
	ch.lines <- line
	return line != nil
}

func (ch *child) readStderr(r io.Reader, forward io.Writer) {
	reader := bufio.NewReader(r)
	for {
		line, err := reader.ReadString('\n')
		if line != "" {
			_, _ = io.WriteString(forward, line)
			if trimmed := strings.TrimRight(line, "\r\n"); strings.TrimSpace(trimmed) != "" {
				ch.mu.Lock()
				ch.lastStderr = trimmed
				ch.mu.Unlock()
			}
		}
		if err != nil {
			return
		}
	}
}

func (ch *child) died(how string) {
	ch.mu.Lock()
	defer ch.mu.Unlock()
	if ch.death != "" {
		return
	}
	ch.death = how
	close(ch.dead)
	ch.exitNotice <- how
	close(ch.exitNotice)
}

func (ch *child) exited() bool {
	select {
	case <-ch.dead:
		return true
	default:
		return false
	}
}

func (ch *child) failure(what string) error {
	ch.mu.Lock()
	note := ch.lastStderr
	ch.mu.Unlock()
	if r := []rune(note); len(r) > maxStderrNote {
		note = string(r[:maxStderrNote])
	}
	return &MachineryFailure{fmt.Sprintf("bridge machinery failure: %s; %s", what, note)}
}

func (ch *child) deathFailure() error {
	ch.mu.Lock()
	how := ch.death
	ch.mu.Unlock()
	return ch.failure(how)
}

func (ch *child) exchange(line []byte, timeout time.Duration) ([]byte, error) {
	if ch.exited() {
		return nil, ch.deathFailure()
	}
	ch.mu.Lock()
	ch.pending = true
	ch.mu.Unlock()
	if _, err := ch.stdin.Write(line); err != nil {
		// The child is dying: its exit, once seen, names the failure.
		select {
		case <-ch.dead:
			return nil, ch.deathFailure()
		case <-time.After(timeout):
			return nil, ch.failure(fmt.Sprintf("no reply within %d ms", timeout.Milliseconds()))
		}
	}
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case reply := <-ch.lines:
		if reply == nil {
			return nil, ch.failure("reply too long")
		}
		return reply, nil
	case <-ch.dead:
		// A reply written just before the exit still counts.
		select {
		case reply := <-ch.lines:
			if reply != nil {
				return reply, nil
			}
		default:
		}
		return nil, ch.deathFailure()
	case <-timer.C:
		ch.kill()
		return nil, ch.failure(fmt.Sprintf("no reply within %d ms", timeout.Milliseconds()))
	}
}

func (ch *child) kill() {
	if !ch.exited() && ch.cmd.Process != nil {
		_ = ch.cmd.Process.Kill()
	}
}

func (ch *child) end(grace time.Duration) {
	if ch.exited() {
		return
	}
	_ = ch.stdin.Close()
	select {
	case <-ch.dead:
	case <-time.After(grace):
		ch.kill()
		<-ch.dead
	}
}

// ReadAnswer reads a bridge reply line; ok is false if the line is not one.
func ReadAnswer(line []byte) (Answer, bool) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(line, &raw); err != nil || raw == nil {
		return Answer{}, false
	}
	switch string(raw["ok"]) {
	case "true":
		result := raw["result"]
		if len(result) == 0 || result[0] != '{' {
			return Answer{}, false
		}
		return Answer{OK: true, Result: result}, true
	case "false":
		var kind, detail string
		if json.Unmarshal(raw["error"], &kind) != nil || json.Unmarshal(raw["detail"], &detail) != nil ||
			len(raw["error"]) == 0 || raw["error"][0] != '"' || len(raw["detail"]) == 0 || raw["detail"][0] != '"' {
			return Answer{}, false
		}
		return Answer{Error: kind, Detail: detail}, true
	}
	return Answer{}, false
}
