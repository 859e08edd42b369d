// Command fingerprint-bench is the Go side of `lab bench` benchmark 4, the counterpart of
// ts-fixture/src/bench/fingerprint-bench.ts: how long the fixture's request fingerprint takes on each request of a
// JSON Lines file ({"name":…,"request":LogicalRequest}), set against two lower bounds measured in the same process.
//
//	CONTINUATION_REPLAY_FINGERPRINT_KEY_HEX=… fingerprint-bench REQUESTS.jsonl [MILLIS]
//
// "bare" is the hashing no implementation can avoid: the two HMAC-SHA256 bindings of the opaque fields and the
// SHA-256 of the canonical payload, over bytes prepared once, so it prices the cryptography alone.
//
// "floor" adds the cheapest writing of the payload Go offers: encoding/json re-encoding a tree decoded from the
// canonical payload itself. Its maps come out in sorted key order and its numbers are the payload's own literals, so
// it needs no member ordering, no number checks and no path bookkeeping of ours; any canonicaliser written in Go
// has at least that much to do on top of the bare hashing. The gap between the fingerprint and the floor is what the
// fixture's own canonicaliser costs beyond that minimum. The floor is only a floor if it writes exactly the
// canonical bytes, so the program refuses an input where Go's encoder does not rather than time different bytes.
//
// Prints one JSON line: {"go": version, "results": [{name, digest, canonical_payload_bytes, fingerprint_ns_per_op,
// fingerprint_ops, bare_ns_per_op, bare_ops, floor_ns_per_op, floor_ops, floor_rounds}]}, floor_rounds being the
// fingerprint/floor ratio of each of 5 interleaved rounds. The key is never printed. Exit 2 for bad
// usage, 1 for an input that cannot be benchmarked.
package main

import (
	"bufio"
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"regexp"
	"runtime"
	"strconv"
	"time"
	"unicode/utf8"

	"lab.continuationreplay/gofixture/internal/fingerprint"
)

const (
	keyVariable   = "CONTINUATION_REPLAY_FINGERPRINT_KEY_HEX"
	usage         = "usage: " + keyVariable + "=<hex, at least 64 digits> fingerprint-bench REQUESTS.jsonl [MILLIS]"
	defaultMillis = 2000
	batch         = 16
)

// An odd count of digits would leave a half byte of the key undefined, so the key must be whole bytes.
var keyHex = regexp.MustCompile(`^(?:[0-9a-fA-F]{2}){32,}$`)

// sink keeps every timed result reachable, so the compiler cannot prove the work unused and drop it.
var sink [3]string

type measured struct {
	nsPerOp float64
	ops     int64
}

// measure times work over millis after a warm-up of half that, in batches so that reading the clock stays a small
// part of each batch (time.Since reads the monotonic clock).
func measure(work func(out *[3]string), millis float64) measured {
	run := func(budgetMs float64) measured {
		budget := time.Duration(math.Round(budgetMs * 1e6))
		start := time.Now()
		var ops int64
		for {
			for range batch {
				work(&sink)
			}
			ops += batch
			// At least one batch, so a budget shorter than one call still yields a figure.
			if elapsed := time.Since(start); elapsed >= budget {
				return measured{float64(elapsed.Nanoseconds()) / float64(ops), ops}
			}
		}
	}
	run(millis / 2)
	sink = [3]string{}
	result := run(millis)
	if sink[0] == "" {
		panic("the timed work left no result")
	}
	return result
}

// prepared is one request with everything its three timings share, computed before any timing starts.
type prepared struct {
	name     *string // nil for a plain (unnamed) request, printed as null as the TypeScript bench does
	label    string  // how messages name the request
	request  fingerprint.LogicalRequest
	digest   string
	messages [2][]byte // field || 0x00 || canonical(value): the two opaque-field HMAC messages
	payload  []byte    // the canonical payload whose SHA-256 is the digest
	tree     any       // the payload decoded by encoding/json, for the floor
}

type result struct {
	Name                  *string   `json:"name"`
	Digest                string    `json:"digest"`
	CanonicalPayloadBytes int       `json:"canonical_payload_bytes"`
	FingerprintNsPerOp    float64   `json:"fingerprint_ns_per_op"`
	FingerprintOps        int64     `json:"fingerprint_ops"`
	BareNsPerOp           float64   `json:"bare_ns_per_op"`
	BareOps               int64     `json:"bare_ops"`
	FloorNsPerOp          float64   `json:"floor_ns_per_op"`
	FloorOps              int64     `json:"floor_ops"`
	FloorRounds           []float64 `json:"floor_rounds"`
}

type report struct {
	Go      string   `json:"go"`
	Results []result `json:"results"`
}

// inputError is an input that cannot be benchmarked (exit 1), as opposed to bad usage (exit 2).
type inputError struct{ msg string }

func (e *inputError) Error() string { return e.msg }

func fail(format string, args ...any) error { return &inputError{fmt.Sprintf(format, args...)} }

// readRequests reads the whole file before any timing, so a bad line late in it fails at once and nothing is printed.
func readRequests(key fingerprint.Key, path string) ([]prepared, error) {
	text, err := os.ReadFile(path)
	if err != nil {
		return nil, fail("%v", err)
	}
	var requests []prepared
	for n, line := range bytes.Split(text, []byte("\n")) {
		if fingerprint.IsBlankLine(line) {
			continue
		}
		p, err := prepare(key, line)
		if err != nil {
			if p.label != "" {
				return nil, fail("line %d (%s): %v", n+1, p.label, err)
			}
			return nil, fail("line %d: %v", n+1, err)
		}
		requests = append(requests, p)
	}
	if len(requests) == 0 {
		return nil, fail("%s holds no request", path)
	}
	return requests, nil
}

// prepare reads one line with the fixture's own reader (the order of checks of fingerprint.FingerprintLine) and
// builds the bytes the bare and floor timings hash.
func prepare(key fingerprint.Key, line []byte) (prepared, error) {
	var p prepared
	if !utf8.Valid(line) {
		return p, errors.New("invalid UTF-8")
	}
	v, err := fingerprint.ParseExact(line)
	if err != nil {
		return p, err
	}
	name, named, err := fingerprint.ReadName(v)
	if err != nil {
		return p, err
	}
	if named {
		p.name, p.label = &name, name
		v = v.(map[string]any)["request"]
	}
	if p.request, err = fingerprint.ReadLogicalRequest(v); err != nil {
		return p, err
	}
	if p.digest, err = fingerprint.Fingerprint(key, p.request); err != nil {
		return p, err
	}
	r := p.request
	for i, field := range []struct {
		name  string
		value any
	}{{fingerprint.ContinuationStateField, r.ContinuationState}, {fingerprint.InputResponsesField, r.InputResponses}} {
		canonical, err := fingerprint.Canonical(field.value)
		if err != nil {
			return p, err
		}
		p.messages[i] = []byte(field.name + "\x00" + canonical)
	}
	var principal any
	if r.Principal != nil {
		principal = *r.Principal
	}
	boundState, err := fingerprint.BindOpaqueField(key, fingerprint.ContinuationStateField, r.ContinuationState)
	if err != nil {
		return p, err
	}
	boundResponses, err := fingerprint.BindOpaqueField(key, fingerprint.InputResponsesField, r.InputResponses)
	if err != nil {
		return p, err
	}
	payload, err := fingerprint.Canonical(map[string]any{
		"principal":                        principal,
		"tool_id":                          r.ToolID,
		"tool_version":                     r.ToolVersion,
		"arguments":                        r.Arguments,
		fingerprint.ContinuationStateField: boundState,
		fingerprint.InputResponsesField:    boundResponses,
	})
	if err != nil {
		return p, err
	}
	p.payload = []byte(payload)
	if sum := sha256.Sum256(p.payload); hex.EncodeToString(sum[:]) != p.digest {
		return p, errors.New("the SHA-256 of the canonical payload built here is not the fixture's fingerprint, so bare would hash other bytes")
	}
	decoder := json.NewDecoder(bytes.NewReader(p.payload))
	decoder.UseNumber()
	if err := decoder.Decode(&p.tree); err != nil {
		return p, fmt.Errorf("encoding/json cannot decode the canonical payload: %v", err)
	}
	var written bytes.Buffer
	if err := newFloorEncoder(&written).Encode(p.tree); err != nil {
		return p, fmt.Errorf("encoding/json cannot encode the canonical payload: %v", err)
	}
	if floor := bytes.TrimSuffix(written.Bytes(), []byte("\n")); !bytes.Equal(floor, p.payload) {
		at := 0
		for at < len(floor) && at < len(p.payload) && floor[at] == p.payload[at] {
			at++
		}
		return p, fmt.Errorf("Go's encoding/json does not produce the canonical bytes of the payload (first difference at byte %d of %d), so it cannot serve as the floor", at, len(p.payload))
	}
	return p, nil
}

func newFloorEncoder(w io.Writer) *json.Encoder {
	e := json.NewEncoder(w)
	e.SetEscapeHTML(false) // the canonical form escapes only quotes, backslashes and controls
	return e
}

// bindings is the two HMACs bare and floor share: a fresh HMAC per message, as the fixture's Key.HMACHex makes one.
func bindings(keyBytes []byte, messages *[2][]byte, out *[3]string) {
	for i := range messages {
		mac := hmac.New(sha256.New, keyBytes)
		mac.Write(messages[i])
		out[i] = hex.EncodeToString(mac.Sum(nil))
	}
}

func sha256Hex(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// floorRounds is how many interleaved rounds give row 4's ratio.
const floorRounds = 5

func bench(keyBytes []byte, key fingerprint.Key, p *prepared, millis float64) result {
	full := measure(func(out *[3]string) {
		out[0], _ = fingerprint.Fingerprint(key, p.request) // its error was checked once in prepare
	}, millis)
	bare := measure(func(out *[3]string) {
		bindings(keyBytes, &p.messages, out)
		out[2] = sha256Hex(p.payload)
	}, millis)
	// One buffer and one encoder for the whole run: allocating them is not work a canonicaliser must do, and the
	// floor should be as low as Go allows.
	var written bytes.Buffer
	encoder := newFloorEncoder(&written)
	floorWork := func(out *[3]string) {
		bindings(keyBytes, &p.messages, out)
		written.Reset()
		if err := encoder.Encode(p.tree); err != nil {
			panic(err) // the same tree encoded once in prepare
		}
		out[2] = sha256Hex(written.Bytes()[:written.Len()-1])
	}
	floor := measure(floorWork, millis)
	fullWork := func(out *[3]string) {
		out[0], _ = fingerprint.Fingerprint(key, p.request)
	}
	// Row 4's ratio, as the other rows' are: fingerprint and floor timed in turn, round by round (the order flips),
	// so a drift of the machine lands on both; the bench takes the median round's.
	rounds := make([]float64, 0, floorRounds)
	for r := 0; r < floorRounds; r++ {
		var fullNs, floorNs float64
		if r%2 == 0 {
			fullNs = measure(fullWork, millis/floorRounds).nsPerOp
			floorNs = measure(floorWork, millis/floorRounds).nsPerOp
		} else {
			floorNs = measure(floorWork, millis/floorRounds).nsPerOp
			fullNs = measure(fullWork, millis/floorRounds).nsPerOp
		}
		rounds = append(rounds, fullNs/floorNs)
	}
	return result{
		Name:                  p.name,
		Digest:                p.digest,
		CanonicalPayloadBytes: len(p.payload),
		FingerprintNsPerOp:    full.nsPerOp,
		FingerprintOps:        full.ops,
		BareNsPerOp:           bare.nsPerOp,
		BareOps:               bare.ops,
		FloorNsPerOp:          floor.nsPerOp,
		FloorOps:              floor.ops,
		FloorRounds:           rounds,
	}
}

func run(args []string, getenv func(string) string, out, errOut io.Writer) int {
	if len(args) < 1 || len(args) > 2 || !keyHex.MatchString(getenv(keyVariable)) {
		fmt.Fprintln(errOut, usage)
		return 2
	}
	millis := float64(defaultMillis)
	if len(args) == 2 {
		m, err := strconv.ParseFloat(args[1], 64)
		if err != nil || !(m > 0) || math.IsInf(m, 0) {
			fmt.Fprintln(errOut, usage+" (MILLIS must be a positive number)")
			return 2
		}
		millis = m
	}
	keyBytes, _ := hex.DecodeString(getenv(keyVariable))
	key, err := fingerprint.NewKey(keyBytes)
	if err != nil {
		fmt.Fprintln(errOut, usage)
		return 2
	}
	requests, err := readRequests(key, args[0])
	if err != nil {
		fmt.Fprintln(errOut, "fingerprint-bench: "+err.Error())
		return 1
	}
	rep := report{Go: runtime.Version(), Results: make([]result, 0, len(requests))}
	for i := range requests {
		rep.Results = append(rep.Results, bench(keyBytes, key, &requests[i], millis))
	}
	w := bufio.NewWriter(out)
	if err := json.NewEncoder(w).Encode(rep); err != nil {
		fmt.Fprintln(errOut, "fingerprint-bench: "+err.Error())
		return 1
	}
	if err := w.Flush(); err != nil {
		fmt.Fprintln(errOut, "fingerprint-bench: "+err.Error())
		return 1
	}
	return 0
}

func main() { os.Exit(run(os.Args[1:], os.Getenv, os.Stdout, os.Stderr)) }
