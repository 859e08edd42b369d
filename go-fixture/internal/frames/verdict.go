// Package frames is the fixture's strict frame gate between stdin and the Go SDK's stdio transport.
//
// Without it the SDK (v1.8.0) reads stdin with one json.Decoder over the whole stream: a line that is not JSON,
// or that holds a second value, ends the session with no reply; a request without a 2026-07-28 envelope runs on
// the pre-2026 path (an initialize handshake, no resultType, and after the first request no version check at
// all); ids are read as float64 (1.5 runs as id 1, null as a notification); a batch is served
// (docs/findings/go-sdk-stdio-frames.md). So every line is judged here first and only lines the SDK handles as
// the protocol says reach it, byte for byte. The verdicts follow the TypeScript fixture's gate
// (ts-fixture/src/frame-verdict.ts) where the shared table vectors/rules/strict-frames.json gives them, plus two
// rules of this fixture (RequireEnvelopeVersion, a requestState that is not a string).
package frames

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"lab.continuationreplay/gofixture/internal/fingerprint"
	"lab.continuationreplay/gofixture/internal/requeststate"
)

// The envelope this fixture speaks.
const (
	ProtocolVersion = "2026-07-28"
	VersionKey      = "io.modelcontextprotocol/protocolVersion"
)

// Kind of verdict.
type Kind int

// The three verdicts: the line goes to the SDK, one error line goes to stdout, or nothing happens.
const (
	Forward Kind = iota
	Reply
	Drop
)

// Verdict on one line (without its newline). Line is the reply for Reply; for Forward it is empty (the line goes
// to the SDK as it came) or the line the SDK gets instead (see forward).
type Verdict struct {
	Kind Kind
	Line string
}

// ErrorLine is {"jsonrpc":"2.0","id":<id>,"error":{"code","message"[,"data"]}}; id is JSON text or "" for none.
// data is JSON text or "". Strings are written with the canonical escapes (no HTML or U+2028 escaping), as
// JSON.stringify writes them.
func ErrorLine(id string, code int, message, data string) string {
	var b strings.Builder
	b.WriteString(`{"jsonrpc":"2.0",`)
	if id != "" {
		b.WriteString(`"id":` + id + `,`)
	}
	b.WriteString(`"error":{"code":`)
	b.WriteString(strconv.Itoa(code))
	b.WriteString(`,"message":`)
	fingerprint.QuoteString(&b, message)
	if data != "" {
		b.WriteString(`,"data":` + data)
	}
	b.WriteString(`}}`)
	return b.String()
}

// The fixed lines.
var (
	ParseError     = ErrorLine("", -32700, "Parse error", "")
	InvalidRequest = ErrorLine("", -32600, "Invalid Request", "")
)

var integerID = regexp.MustCompile(`^-?(0|[1-9][0-9]*)$`)

// ValidID is the id's JSON text for a reply if it is a valid MCP id: a string (copied as sent), or an integer
// spelt as one within ±(2^53−1) (written in plain decimal, -0 as 0).
func ValidID(raw json.RawMessage) (string, bool) {
	text := string(raw)
	if strings.HasPrefix(text, `"`) {
		return text, true
	}
	if !integerID.MatchString(text) || len(strings.TrimPrefix(text, "-")) > 16 {
		return "", false
	}
	v, err := fingerprint.ClassifyNumberLiteral(text)
	n, ok := v.(int64)
	if err != nil || !ok {
		return "", false
	}
	return strconv.FormatInt(n, 10), true
}

func isObject(raw json.RawMessage) bool { return len(raw) > 0 && raw[0] == '{' }

func isString(raw json.RawMessage) bool { return len(raw) > 0 && raw[0] == '"' }

// members decodes an object's members, the last of a repeated name winning (as JSON.parse and Jackson keep it).
func members(raw json.RawMessage) map[string]json.RawMessage {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil
	}
	return m
}

func stringValue(raw json.RawMessage) (string, bool) {
	var s string
	if !isString(raw) || json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

// Judge decides what happens to one line.
func Judge(line []byte) Verdict {
	if len(line) == 0 || (len(line) == 1 && line[0] == '\r') {
		return Verdict{Kind: Drop} // an empty line carries nothing
	}
	// encoding/json's own nesting limit (10,000) refuses what would otherwise end the SDK's session.
	if !utf8.Valid(line) || !json.Valid(line) {
		return Verdict{Reply, ParseError}
	}
	trimmed := bytes.TrimLeft(line, " \t\r\n")
	if !isObject(trimmed) {
		return Verdict{Reply, InvalidRequest}
	}
	msg := members(trimmed)
	idRaw, hasID := msg["id"]
	_, hasMethod := msg["method"]
	_, hasResult := msg["result"]
	_, hasError := msg["error"]
	if !hasID {
		if hasMethod {
			if problem(msg) == nil {
				return forward(trimmed)
			}
			return Verdict{Kind: Drop} // notifications are never answered
		}
		if hasResult || hasError {
			return forward(trimmed)
		}
		return Verdict{Reply, InvalidRequest}
	}
	if !hasMethod && (hasResult || hasError) {
		return forward(trimmed) // a response: the SDK ignores one it is not waiting for
	}
	id, ok := ValidID(idRaw)
	if !ok {
		return Verdict{Reply, InvalidRequest}
	}
	if p := problem(msg); p != nil {
		return Verdict{Reply, p(id)}
	}
	if p := requestProblem(msg); p != nil {
		return Verdict{Reply, p(id)}
	}
	return forward(trimmed)
}

// forward lets an object the gate has judged reach the SDK as the gate read it. The gate reads a repeated member as
// the Java and TypeScript SDKs do, by its last value (as the shared table says). The Go SDK decodes the envelope
// member by member into a struct, so a first value of another type (`"jsonrpc":[],"jsonrpc":"2.0"`) fails the
// decode of the whole stream: the session ends and the process with it (found by lab faults' full wire fuzz,
// docs/findings/go-sdk-stdio-frames.md). Such a line goes on as the object the gate judged: each member once, at
// its first place, with its last value as sent; the same one level down, in params (a repeated requestState whose
// first value is not a string would otherwise get the SDK's unmarshalling message, not the frozen refusal).
func forward(object []byte) Verdict {
	members, changed := readMembers(object)
	if members == nil {
		return Verdict{Kind: Forward}
	}
	for i, m := range members {
		if m.name != "params" || !isObject(m.value) {
			continue
		}
		if params, paramsChanged := readMembers(m.value); params != nil && paramsChanged {
			members[i].value = json.RawMessage(writeMembers(params))
			changed = true
		}
	}
	if !changed {
		return Verdict{Kind: Forward}
	}
	return Verdict{Kind: Forward, Line: writeMembers(members)}
}

// AsJudged is the POST body the SDK gets once JudgeHTTPBody has passed it: as sent, or rewritten as forward says
// (over HTTP the SDK answers such a body 400 "malformed payload" where the other SDKs run it).
func AsJudged(body []byte) []byte {
	if v := forward(bytes.TrimLeft(body, " \t\r\n")); v.Line != "" {
		return []byte(v.Line)
	}
	return body
}

type member struct {
	name  string
	value json.RawMessage
}

// readMembers reads a valid JSON object's members once each (first place, last value); changed says whether a
// repeated member had different values, which the SDK would read differently from the gate. nil when the object
// cannot be read (the gate has already judged it valid, so this does not happen).
func readMembers(object []byte) ([]member, bool) {
	dec := json.NewDecoder(bytes.NewReader(object))
	if _, err := dec.Token(); err != nil { // '{'
		return nil, false
	}
	var members []member
	at := map[string]int{}
	changed := false
	for dec.More() {
		token, err := dec.Token()
		if err != nil {
			return nil, false
		}
		name, _ := token.(string)
		var value json.RawMessage
		if err := dec.Decode(&value); err != nil {
			return nil, false
		}
		if i, seen := at[name]; seen {
			// a repeat of the same text decodes the same in every SDK; only a different value needs the rewrite
			changed = changed || !bytes.Equal(members[i].value, value)
			members[i].value = value
			continue
		}
		at[name] = len(members)
		members = append(members, member{name, value})
	}
	return members, changed
}

func writeMembers(members []member) string {
	var out strings.Builder
	out.WriteByte('{')
	for i, m := range members {
		if i > 0 {
			out.WriteByte(',')
		}
		fingerprint.QuoteString(&out, m.name)
		out.WriteByte(':')
		out.Write(m.value)
	}
	out.WriteByte('}')
	return out.String()
}

type answer func(id string) string

// problem: the rules of the TypeScript gate, for requests and notifications.
func problem(msg map[string]json.RawMessage) answer {
	invalid := func(id string) string { return ErrorLine(id, -32600, "Invalid Request", "") }
	version, _ := stringValue(msg["jsonrpc"])
	_, hasResult := msg["result"]
	_, hasError := msg["error"]
	if version != "2.0" || !isString(msg["method"]) || hasResult || hasError {
		return invalid
	}
	paramsRaw, hasParams := msg["params"]
	if !hasParams {
		return nil
	}
	if !isObject(paramsRaw) {
		return invalid
	}
	params := members(paramsRaw)
	metaRaw, hasMeta := params["_meta"]
	if !hasMeta {
		return nil
	}
	if !isObject(metaRaw) {
		return func(id string) string { return ErrorLine(id, -32602, "params._meta must be an object", "") }
	}
	if v, isStr := stringValue(members(metaRaw)[VersionKey]); isStr && v != ProtocolVersion {
		return func(id string) string {
			var data strings.Builder
			data.WriteString(`{"supported":["` + ProtocolVersion + `"],"requested":`)
			fingerprint.QuoteString(&data, v)
			data.WriteString(`}`)
			return ErrorLine(id, -32022, "Unsupported protocol version", data.String())
		}
	}
	return nil
}

// MissingVersion is this fixture's refusal of a request without a string envelope version, worded as the SDK
// words its own refusal of a missing clientCapabilities.
var MissingVersion = `missing or invalid _meta field "` + VersionKey + `"`

// requestProblem: this fixture's own rules for requests (an id and a method).
//
//   - RequireEnvelopeVersion: the request's params._meta must carry a string protocol version (by now it is
//     2026-07-28). The Java and TypeScript SDKs answer such a request -32602 themselves; the Go SDK runs it on the
//     pre-2026 path instead (an initialize handshake, or, once a first request has set the session, the request
//     itself with no version check and no resultType).
//   - a tools/call whose requestState is present but not a string gets the frozen state refusal; the SDK would
//     answer -32602 with an unmarshalling message that quotes the whole params.
func requestProblem(msg map[string]json.RawMessage) answer {
	params := members(msg["params"]) // absent params: nil, so no version
	if _, ok := stringValue(members(params["_meta"])[VersionKey]); !ok {
		return func(id string) string { return ErrorLine(id, -32602, MissingVersion, "") }
	}
	method, _ := stringValue(msg["method"])
	if state, has := params["requestState"]; method == "tools/call" && has && !isString(state) {
		return func(id string) string {
			return ErrorLine(id, -32602, requeststate.InvalidMessage, `{"reason":"`+requeststate.InvalidReason+`"}`)
		}
	}
	return nil
}

// JudgeHTTPBody applies the Java server's HTTP gate to one POST body (docs/http.md, "Strict bodies"): it returns
// the 400 line the stdio gate writes for the same problem, or "" when the body may go to the SDK. Only these rules
// apply over HTTP, as in the Java server and the TypeScript fixture; the SDK answers the rest itself.
//
//   - not strict UTF-8, not JSON, empty, or more than one JSON value: -32700 without id;
//   - JSON but not an object (a batch, a string, …): -32600 without id;
//   - jsonrpc missing or not the string "2.0" (the last of repeated members counts): -32600, with the id when it
//     is a string or an integer within ±(2^53−1);
//   - this fixture's own HTTP rule: a request (a method) whose id is present but not a string or an integer within
//     ±(2^53−1) spelt as one: -32600 without id, the stdio gate's line. The Go SDK reads ids as float64 and would
//     run {"id":1.5} as id 1, effect included, where the Java and TypeScript SDKs refuse it
//     (docs/findings/go-sdk-http-embedding.md).
//   - this fixture's own rule, the stdio gate's: a tools/call whose requestState is present but not a string gets
//     the frozen state refusal (-32602 with data.reason), as every other server answers any requestState it cannot
//     open. Left to it, the SDK checks the Mcp-Name header against params first, fails to read params whose
//     requestState is not a string, and answers -32020 "failed to extract name from parameters"
//     (docs/findings/go-sdk-http-embedding.md).
func JudgeHTTPBody(body []byte) string {
	if !utf8.Valid(body) || !json.Valid(body) {
		return ParseError
	}
	trimmed := bytes.TrimLeft(body, " \t\r\n")
	if !isObject(trimmed) {
		return InvalidRequest
	}
	msg := members(trimmed)
	if version, _ := stringValue(msg["jsonrpc"]); version != "2.0" {
		id := ""
		if raw, has := msg["id"]; has {
			id, _ = ValidID(raw)
		}
		return ErrorLine(id, -32600, "Invalid Request", "")
	}
	id := ""
	if raw, has := msg["id"]; has {
		if _, isRequest := msg["method"]; isRequest {
			valid, ok := ValidID(raw)
			if !ok {
				return InvalidRequest
			}
			id = valid
		}
	}
	method, _ := stringValue(msg["method"])
	if state, has := members(msg["params"])["requestState"]; method == "tools/call" && has && !isString(state) {
		return ErrorLine(id, -32602, requeststate.InvalidMessage, `{"reason":"`+requeststate.InvalidReason+`"}`)
	}
	return ""
}

// HTTPRequestID is the id to echo in a refusal of a body JudgeHTTPBody passed: a request's id as sent, or "" for
// a notification.
func HTTPRequestID(body []byte) string {
	msg := members(bytes.TrimLeft(body, " \t\r\n"))
	if _, isRequest := msg["method"]; !isRequest {
		return ""
	}
	id, _ := ValidID(msg["id"])
	return id
}
