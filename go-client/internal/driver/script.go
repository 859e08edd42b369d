// Package driver plays a client step script (client-script/1, docs/client-drivers.md) through the Go SDK's client
// and writes one client record per step.
package driver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// ScriptFormat is the only script format this driver reads.
const ScriptFormat = "client-script/1"

// MinTokenLength is the servers' own minimum for a bearer token.
const MinTokenLength = 32

// As written in the URL: 127.1 reaches the same address, but a script should say what it means.
var loopbackHosts = []string{"127.0.0.1", "localhost", "[::1]"}

var stepMembers = map[string][]string{
	"connect":    {"op", "connection", "server"},
	"list_tools": {"op", "connection"},
	"call":       {"op", "connection", "tool", "arguments", "answer"},
	// ts_api names a TypeScript call form; this driver accepts it and plays the one form its SDK has.
	"call_once": {"op", "connection", "tool", "arguments", "input_responses", "state", "state_transform", "save_state", "ts_api"},
	"status":    {"op", "connection", "operation_id"},
	"parallel":  {"op", "steps"},
	"close":     {"op", "connection"},
}

// ScriptError is a script the driver cannot run; Error() is the whole stderr line.
type ScriptError struct{ Line string }

func (e *ScriptError) Error() string { return e.Line }

func fail(where, problem string) error { return &ScriptError{Line: "script error: " + where + problem} }

// Server is one entry of "servers": stdio (Command) or HTTP (URL).
type Server struct {
	Command  []string
	Env      map[string]string
	URL      string
	TokenEnv string
	// token is unexported and Server has a String method: neither a log line nor %v can print it.
	token string
}

// GoString keeps %#v from printing the token too.
func (s Server) GoString() string { return s.String() }

// HTTP reports whether the server is reached over Streamable HTTP.
func (s *Server) HTTP() bool { return s.URL != "" }

// Token is the bearer token read from the driver's environment.
func (s *Server) Token() string { return s.token }

// String is also what %+v prints; GoString covers %#v.
func (s Server) String() string {
	if s.HTTP() {
		return "http " + s.URL
	}
	return "stdio " + strings.Join(s.Command, " ")
}

// Step is one inner step; ID is the record's step: a number at the top level, "3.1" inside a parallel step.
type Step struct {
	ID             any
	Op             string
	Connection     string
	Server         string
	Tool           string
	Arguments      map[string]any
	Answer         map[string]any
	InputResponses json.RawMessage
	inputs         map[string]any
	State          string
	Tamper         bool
	SaveState      string
	OperationID    string
}

// TopStep is a top-level step: one inner step, or a parallel step's inner steps (Parallel true).
type TopStep struct {
	Parallel bool
	Steps    []*Step
}

// Script is a checked script.
type Script struct {
	Servers          map[string]*Server
	RequestTimeoutMs *int64
	VersionMode      string
	Steps            []TopStep
}

type members struct {
	where string
	m     map[string]any
}

func newMembers(where string, m map[string]any, allowed []string) (*members, error) {
	for _, name := range slices.Sorted(maps.Keys(m)) {
		if !slices.Contains(allowed, name) {
			return nil, fail(where, fmt.Sprintf("unknown member %q", name))
		}
	}
	return &members{where, m}, nil
}

func (m *members) has(name string) bool { _, ok := m.m[name]; return ok }

func (m *members) str(name string) (string, error) {
	v, ok := m.m[name]
	if !ok {
		return "", fail(m.where, name+" is required")
	}
	s, ok := v.(string)
	if !ok || s == "" {
		return "", fail(m.where, name+" must be a non-empty string")
	}
	return s, nil
}

func (m *members) optionalStr(name string) (string, error) {
	if !m.has(name) {
		return "", nil
	}
	return m.str(name)
}

func (m *members) object(name string) (map[string]any, error) {
	v, ok := m.m[name]
	if !ok {
		return nil, fail(m.where, name+" is required")
	}
	o, ok := v.(map[string]any)
	if !ok {
		return nil, fail(m.where, name+" must be an object")
	}
	return o, nil
}

func (m *members) optionalObject(name string) (map[string]any, error) {
	if !m.has(name) {
		return nil, nil
	}
	return m.object(name)
}

func (m *members) oneOf(name string, allowed []string, fallback string) (string, error) {
	v, ok := m.m[name]
	if !ok {
		return fallback, nil
	}
	s, isString := v.(string)
	if !isString || !slices.Contains(allowed, s) {
		quoted := make([]string, len(allowed))
		for i, a := range allowed {
			quoted[i] = `"` + a + `"`
		}
		return "", fail(m.where, name+" must be one of "+strings.Join(quoted, ", "))
	}
	return s, nil
}

// Parse reads and checks a whole script; lookup is the driver's environment, where bearer tokens are read.
func Parse(text []byte, lookup func(string) (string, bool)) (*Script, error) {
	decoder := json.NewDecoder(bytes.NewReader(text))
	decoder.UseNumber()
	var document any
	if err := decoder.Decode(&document); err != nil {
		return nil, &ScriptError{"script error: not JSON (" + err.Error() + ")"}
	}
	if decoder.More() {
		return nil, &ScriptError{"script error: not JSON (text after the script's object)"}
	}
	top, ok := document.(map[string]any)
	if !ok {
		return nil, &ScriptError{"script error: the script must be a JSON object"}
	}
	m, err := newMembers("", top, []string{"format", "servers", "request_timeout_ms", "version_mode", "steps"})
	if err != nil {
		return nil, err
	}
	// The tag first: a script of another format version must be named as such, not by whichever member differs.
	if format, _ := top["format"].(string); format != ScriptFormat {
		shown, _ := json.Marshal(top["format"])
		return nil, fail("", fmt.Sprintf("format must be %q (got %s)", ScriptFormat, shown))
	}
	rawServers, err := m.object("servers")
	if err != nil {
		return nil, err
	}
	servers, err := parseServers(rawServers, lookup)
	if err != nil {
		return nil, err
	}
	script := &Script{Servers: servers}
	timeout, present := top["request_timeout_ms"]
	if !present {
		return nil, fail("", "request_timeout_ms is required (null for the SDK default)")
	}
	if timeout != nil {
		n, isNumber := timeout.(json.Number)
		value, convErr := strconv.ParseInt(string(n), 10, 64)
		if !isNumber || convErr != nil || value <= 0 || value > 1<<53-1 {
			return nil, fail("", "request_timeout_ms must be null or a positive whole number of milliseconds")
		}
		script.RequestTimeoutMs = &value
	}
	if !m.has("version_mode") {
		return nil, fail("", "version_mode is required")
	}
	if script.VersionMode, err = m.oneOf("version_mode", []string{"pin", "auto", "default"}, "pin"); err != nil {
		return nil, err
	}
	rawSteps, isArray := top["steps"].([]any)
	if !isArray {
		return nil, fail("", "steps must be an array")
	}
	s := &scope{open: map[string]bool{}, saved: map[string]bool{}}
	for index, raw := range rawSteps {
		step, err := parseStep(raw, index, servers, s)
		if err != nil {
			return nil, err
		}
		script.Steps = append(script.Steps, step)
	}
	return script, nil
}

func parseServers(raw map[string]any, lookup func(string) (string, bool)) (map[string]*Server, error) {
	servers := map[string]*Server{}
	for _, name := range slices.Sorted(maps.Keys(raw)) {
		where := "servers." + name + ": "
		spec, ok := raw[name].(map[string]any)
		if !ok {
			return nil, fail(where, "must be an object")
		}
		var server *Server
		var err error
		if _, isHTTP := spec["url"]; isHTTP {
			server, err = parseHTTPServer(where, spec, lookup)
		} else {
			server, err = parseStdioServer(where, spec)
		}
		if err != nil {
			return nil, err
		}
		servers[name] = server
	}
	return servers, nil
}

func parseStdioServer(where string, spec map[string]any) (*Server, error) {
	m, err := newMembers(where, spec, []string{"command", "env"})
	if err != nil {
		return nil, err
	}
	parts, ok := spec["command"].([]any)
	if !ok || len(parts) == 0 {
		return nil, fail(where, "command must be a non-empty array of strings")
	}
	command := make([]string, len(parts))
	for i, part := range parts {
		s, isString := part.(string)
		if !isString || (i == 0 && s == "") {
			return nil, fail(where, "command must be a non-empty array of strings")
		}
		command[i] = s
	}
	rawEnv, err := m.optionalObject("env")
	if err != nil {
		return nil, err
	}
	env := map[string]string{}
	for variable, value := range rawEnv {
		s, isString := value.(string)
		if !isString {
			return nil, fail(where, "env."+variable+" must be a string")
		}
		env[variable] = s
	}
	return &Server{Command: command, Env: env}, nil
}

var printable = regexp.MustCompile(`^[\x21-\x7e]+$`)
var controlOrSpace = regexp.MustCompile(`[\x00-\x20\x7f]`)
var schemeAndAuthority = regexp.MustCompile(`^([A-Za-z][A-Za-z0-9+.-]*)://([^/?#]*)`)

// parseHTTPServer reads the token now, so a missing or unusable one stops the driver before any request; no message
// holds it, and none repeats a URL's user information.
func parseHTTPServer(where string, spec map[string]any, lookup func(string) (string, bool)) (*Server, error) {
	m, err := newMembers(where, spec, []string{"url", "bearer_token_env"})
	if err != nil {
		return nil, err
	}
	text, err := m.str("url")
	if err != nil {
		return nil, err
	}
	if controlOrSpace.MatchString(text) {
		return nil, fail(where, "url is not a URL")
	}
	written := schemeAndAuthority.FindStringSubmatch(text)
	if written == nil || strings.ToLower(written[1]) != "http" {
		return nil, fail(where, "url must be an http:// URL")
	}
	authority := written[2]
	if strings.Contains(authority, "@") {
		return nil, fail(where, "url must not carry user information")
	}
	host, rest := authority, ""
	if strings.HasPrefix(authority, "[") {
		if end := strings.Index(authority, "]"); end >= 0 {
			host, rest = authority[:end+1], authority[end+1:]
		}
	} else if i := strings.Index(authority, ":"); i >= 0 {
		host, rest = authority[:i], authority[i:]
	}
	if !slices.Contains(loopbackHosts, strings.ToLower(host)) {
		named := ""
		if host != "" {
			named = ", not " + host
		}
		return nil, fail(where, "url must name a loopback host (127.0.0.1, localhost or [::1])"+named)
	}
	if rest != "" {
		port, err := strconv.Atoi(strings.TrimPrefix(rest, ":"))
		if !strings.HasPrefix(rest, ":") || err != nil || port < 0 || port > 65535 {
			return nil, fail(where, "url is not a URL")
		}
		if port == 0 {
			return nil, fail(where, "url has port 0, outside 1..65535")
		}
	}
	variable, err := m.str("bearer_token_env")
	if err != nil {
		return nil, err
	}
	token, set := lookup(variable)
	if !set {
		return nil, fail(where, "bearer_token_env "+variable+" is not set in the driver's environment")
	}
	if len(token) < MinTokenLength {
		return nil, fail(where, fmt.Sprintf("bearer_token_env %s holds a token shorter than %d characters", variable, MinTokenLength))
	}
	if !printable.MatchString(token) {
		return nil, fail(where, "bearer_token_env "+variable+" holds a character other than printable ASCII (no spaces)")
	}
	return &Server{URL: text, TokenEnv: variable, token: token}, nil
}

// scope is what the steps before a given step leave behind, for the "used before" checks.
type scope struct {
	open  map[string]bool
	saved map[string]bool
}

func (s *scope) clone() *scope {
	return &scope{open: maps.Clone(s.open), saved: maps.Clone(s.saved)}
}

func parseStep(raw any, index int, servers map[string]*Server, s *scope) (TopStep, error) {
	object, ok := raw.(map[string]any)
	if !ok {
		return TopStep{}, fail(fmt.Sprintf("step %d: ", index), "must be an object")
	}
	label := strconv.Itoa(index)
	if object["op"] != "parallel" {
		step, err := parseInner(object, index, label, servers, s, s)
		return TopStep{Steps: []*Step{step}}, err
	}
	// Inner steps run at once: each sees what the steps before the parallel step left; what they open, close or
	// save counts from the next step on.
	m, err := newMembers(fmt.Sprintf("step %d (parallel): ", index), object, stepMembers["parallel"])
	if err != nil {
		return TopStep{}, err
	}
	inner, isArray := object["steps"].([]any)
	if !isArray || len(inner) == 0 {
		return TopStep{}, fail(m.where, "steps must be a non-empty array")
	}
	before := s.clone()
	used := map[string]string{}
	top := TopStep{Parallel: true}
	for position, child := range inner {
		childLabel := fmt.Sprintf("%d.%d", index, position)
		childObject, isObject := child.(map[string]any)
		if !isObject {
			return TopStep{}, fail("step "+childLabel+": ", "must be an object")
		}
		if childObject["op"] == "parallel" {
			return TopStep{}, fail("step "+childLabel+" (parallel): ", "a parallel step cannot contain another one")
		}
		step, err := parseInner(childObject, childLabel, childLabel, servers, before, s)
		if err != nil {
			return TopStep{}, err
		}
		if earlier, taken := used[step.Connection]; taken {
			return TopStep{}, fail(fmt.Sprintf("step %s (%s): ", childLabel, step.Op),
				fmt.Sprintf("connection %q is already used by step %s of this parallel step", step.Connection, earlier))
		}
		used[step.Connection] = childLabel
		top.Steps = append(top.Steps, step)
	}
	return top, nil
}

func parseInner(object map[string]any, id any, label string, servers map[string]*Server, before, after *scope) (*Step, error) {
	rawOp, present := object["op"]
	if !present {
		return nil, fail("step "+label+": ", "op is required")
	}
	op, isString := rawOp.(string)
	if _, known := stepMembers[op]; !isString || !known || op == "parallel" {
		shown, _ := json.Marshal(rawOp)
		return nil, fail("step "+label+": ", "unknown op "+string(shown))
	}
	m, err := newMembers(fmt.Sprintf("step %s (%s): ", label, op), object, stepMembers[op])
	if err != nil {
		return nil, err
	}
	step := &Step{ID: id, Op: op}
	if step.Connection, err = m.str("connection"); err != nil {
		return nil, err
	}
	if op == "connect" {
		if step.Server, err = m.str("server"); err != nil {
			return nil, err
		}
		if _, known := servers[step.Server]; !known {
			return nil, fail(m.where, fmt.Sprintf("unknown server %q", step.Server))
		}
		if before.open[step.Connection] {
			return nil, fail(m.where, fmt.Sprintf("connection %q is already connected", step.Connection))
		}
		after.open[step.Connection] = true
		return step, nil
	}
	if !before.open[step.Connection] {
		return nil, fail(m.where, fmt.Sprintf("connection %q is used before it is connected", step.Connection))
	}
	switch op {
	case "list_tools":
	case "close":
		delete(after.open, step.Connection)
	case "status":
		step.OperationID, err = m.str("operation_id")
	case "call":
		if step.Tool, err = m.str("tool"); err == nil {
			if step.Arguments, err = m.object("arguments"); err == nil {
				step.Answer, err = m.optionalObject("answer")
			}
		}
	case "call_once":
		err = parseCallOnce(m, step, before, after)
	}
	if err != nil {
		return nil, err
	}
	return step, nil
}

func parseCallOnce(m *members, step *Step, before, after *scope) error {
	var err error
	if step.Tool, err = m.str("tool"); err != nil {
		return err
	}
	if step.Arguments, err = m.object("arguments"); err != nil {
		return err
	}
	if step.inputs, err = m.optionalObject("input_responses"); err != nil {
		return err
	}
	if step.inputs != nil {
		if step.InputResponses, err = json.Marshal(step.inputs); err != nil {
			return err
		}
	}
	if step.State, err = m.optionalStr("state"); err != nil {
		return err
	}
	if step.State != "" && !before.saved[step.State] {
		return fail(m.where, fmt.Sprintf("state %q is used before it is saved", step.State))
	}
	if step.State == "" && m.has("state_transform") {
		return fail(m.where, "state_transform needs a state")
	}
	transform, err := m.oneOf("state_transform", []string{"none", "tamper"}, "none")
	if err != nil {
		return err
	}
	step.Tamper = transform == "tamper"
	if step.SaveState, err = m.optionalStr("save_state"); err != nil {
		return err
	}
	if _, err = m.oneOf("ts_api", []string{"callTool", "request"}, "callTool"); err != nil {
		return err
	}
	if step.SaveState != "" {
		after.saved[step.SaveState] = true
	}
	return nil
}

// Tamper is the seed's tamper, as case 05 applies it: the middle character becomes "A", or "B" if it already is.
func Tamper(token string) string {
	middle := len(token) / 2
	if middle >= len(token) {
		return token
	}
	replacement := "A"
	if token[middle] == 'A' {
		replacement = "B"
	}
	return token[:middle] + replacement + token[middle+1:]
}
