// Package config reads the fixture's trusted configuration from its environment only (the WIRE_* names of
// DESIGN.md), never from the wire: the twin of shared-store's TrustedEnvironment and ts-fixture's
// trusted-environment.ts, accepting the same values and refusing the rest with the same messages, which name the
// variable and never its value (vectors/rules/trusted-environment.json).
package config

import (
	"encoding/hex"
	"fmt"
	"math/big"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The variable names.
const (
	ServerDB = "WIRE_SERVER_DB"
	// LedgerURL names a PostgreSQL ledger; the bridge reads it (with its user and password), and then
	// WIRE_SERVER_DB may be absent.
	LedgerURL          = "WIRE_LEDGER_URL"
	BackendID          = "WIRE_BACKEND_ID"
	Principal          = "WIRE_PRINCIPAL"
	ClockEpoch         = "WIRE_CLOCK_EPOCH"
	AuthorityTTL       = "WIRE_AUTHORITY_TTL"
	ReplayRetentionTTL = "WIRE_REPLAY_RETENTION_TTL"
	RequestStateTTL    = "WIRE_REQUEST_STATE_TTL"
	StateKeyHex        = "WIRE_STATE_KEY_HEX"
	FingerprintKeyHex  = "WIRE_FINGERPRINT_KEY_HEX"
	Fault              = "WIRE_FAULT"
	BearerTokensFile   = "WIRE_BEARER_TOKENS_FILE"
	HTTPReadTimeoutMs  = "WIRE_HTTP_READ_TIMEOUT_MS"
)

// CloseAfterCommit is HTTP mode's own fault: the connection is cut after the commit, the process keeps serving.
const CloseAfterCommit = "close-after-commit"

// HTTPFaults are the faults HTTP mode accepts: the stdio ones and close-after-commit.
var HTTPFaults = append(append([]string(nil), Faults...), CloseAfterCommit)

// DefaultHTTPReadTimeoutMs is how long a client may take to send a whole request when WIRE_HTTP_READ_TIMEOUT_MS is unset.
const DefaultHTTPReadTimeoutMs = 10000

// HTTP is HTTP mode's own configuration. TokensFile is "" only under the conformance profile without a file.
type HTTP struct {
	TokensFile    string
	ReadTimeoutMs int64
}

// ReadHTTP reads HTTP mode's variables in Read's order, without WIRE_PRINCIPAL (a request's principal comes from its
// bearer token), the HTTP ones last, as the TypeScript fixture's readHttpConfig does. Under the conformance profile
// the tokens file is optional (the official suite sends no token).
func ReadHTTP(env Lookup, conformance bool) (Config, HTTP, error) {
	var c Config
	var h HTTP
	var err error
	steps := append(commonSteps(env, &c, false, HTTPFaults),
		func() error {
			if v, _ := env(BearerTokensFile); conformance && v == "" {
				return nil
			}
			h.TokensFile, err = Required(env, BearerTokensFile)
			return err
		},
		func() error { h.ReadTimeoutMs, err = readTimeoutMs(env); return err },
	)
	if err := run(steps); err != nil {
		return Config{}, HTTP{}, err
	}
	return c, h, nil
}

// readTimeoutMs is optional; whole milliseconds read like the TTLs, positive, at most 2^31-1 (the TypeScript
// fixture's bound, kept so both accept the same values).
func readTimeoutMs(env Lookup) (int64, error) {
	if v, ok := env(HTTPReadTimeoutMs); !ok || v == "" {
		return DefaultHTTPReadTimeoutMs, nil
	}
	ms, err := positive(env, HTTPReadTimeoutMs, "milliseconds")
	if err != nil {
		return 0, err
	}
	if ms > 2147483647 {
		return 0, errorf("%s is too large", HTTPReadTimeoutMs)
	}
	return ms, nil
}

// MinKeyBytes is the shortest key accepted.
const MinKeyBytes = 32

// The stdio lab faults, in LabFault's order.
const (
	DropAfterCommit             = "drop-after-commit"
	ExitAfterLedgerInsert       = "exit-after-ledger-insert"
	ExitAfterIssueInsert        = "exit-after-issue-insert"
	ExitAfterPartialFirstCommit = "exit-after-partial-first-commit"
)

// Faults are the stdio faults; the last three are acted on by the bridge, which exits (71, 72, 73) mid-apply.
var Faults = []string{DropAfterCommit, ExitAfterLedgerInsert, ExitAfterIssueInsert, ExitAfterPartialFirstCommit}

// Config is the fixture's trusted configuration. Fault is "" for none.
type Config struct {
	Database           string
	BackendID          string
	Principal          string
	ClockEpoch         int64
	AuthorityTTL       int64
	ReplayRetentionTTL int64
	RequestStateTTL    int64
	StateKey           []byte
	FingerprintKey     []byte
	Fault              string
}

// Error names the variable, never its value.
type Error struct{ msg string }

func (e *Error) Error() string { return e.msg }

func errorf(format string, args ...any) error { return &Error{fmt.Sprintf(format, args...)} }

// Lookup is os.LookupEnv or a test's map.
type Lookup func(name string) (string, bool)

// Read validates every variable in a fixed order; the first bad one is the error.
func Read(env Lookup) (Config, error) {
	var c Config
	if err := run(commonSteps(env, &c, true, Faults)); err != nil {
		return Config{}, err
	}
	return c, nil
}

// commonSteps read the variables stdio and HTTP mode share, in their fixed order, into c: WIRE_PRINCIPAL only with
// withPrincipal (HTTP takes a request's principal from its bearer token), the fault from faults.
func commonSteps(env Lookup, c *Config, withPrincipal bool, faults []string) []func() error {
	var err error
	steps := []func() error{
		func() error {
			// the fixture never opens the ledger itself; the bridge does, and validates the URL and its password
			if url, _ := env(LedgerURL); url != "" {
				c.Database, _ = env(ServerDB)
				return nil
			}
			c.Database, err = Required(env, ServerDB)
			return err
		},
		func() error { c.BackendID, err = Required(env, BackendID); return err },
	}
	if withPrincipal {
		steps = append(steps, func() error { c.Principal, err = Required(env, Principal); return err })
	}
	return append(steps,
		func() error { c.ClockEpoch, err = Clock(env); return err },
		func() error { c.AuthorityTTL, err = PositiveSeconds(env, AuthorityTTL); return err },
		func() error { c.ReplayRetentionTTL, err = PositiveSeconds(env, ReplayRetentionTTL); return err },
		func() error { c.RequestStateTTL, err = PositiveSeconds(env, RequestStateTTL); return err },
		func() error { c.StateKey, err = KeyBytes(env, StateKeyHex); return err },
		func() error { c.FingerprintKey, err = KeyBytes(env, FingerprintKeyHex); return err },
		func() error { c.Fault, err = faultOf(env, faults); return err },
	)
}

// run runs the steps in order and stops at the first error.
func run(steps []func() error) error {
	for _, step := range steps {
		if err := step(); err != nil {
			return err
		}
	}
	return nil
}

// Required is the variable's value; unset or empty is an error.
func Required(env Lookup, name string) (string, error) {
	v, ok := env(name)
	if !ok || v == "" {
		return "", errorf("%s is required", name)
	}
	return v, nil
}

// Clock is the injected clock: whole epoch seconds, not negative.
func Clock(env Lookup) (int64, error) {
	d, err := decimal(env, ClockEpoch)
	if err != nil {
		return 0, err
	}
	if d.unscaled.Sign() < 0 {
		return 0, errorf("%s must not be negative", ClockEpoch)
	}
	return wholeSeconds(ClockEpoch, d)
}

// PositiveSeconds is a TTL: whole seconds, positive.
func PositiveSeconds(env Lookup, name string) (int64, error) { return positive(env, name, "seconds") }

// positive is a whole, positive number of unit, within the safe-integer range.
func positive(env Lookup, name, unit string) (int64, error) {
	d, err := decimal(env, name)
	if err != nil {
		return 0, err
	}
	if d.unscaled.Sign() <= 0 {
		return 0, errorf("%s must be positive", name)
	}
	return wholeUnits(name, d, unit)
}

// KeyBytes is an even-length hexadecimal key of at least 32 bytes.
func KeyBytes(env Lookup, name string) ([]byte, error) {
	text, err := Required(env, name)
	if err != nil {
		return nil, err
	}
	for i := 0; i < len(text); i++ {
		c := text[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return nil, errorf("%s must be hexadecimal", name)
		}
	}
	if len(text)%2 != 0 {
		return nil, errorf("%s must be hexadecimal", name)
	}
	b, _ := hex.DecodeString(text)
	if len(b) < MinKeyBytes {
		return nil, errorf("%s must contain at least %d bytes", name, MinKeyBytes)
	}
	return b, nil
}

// FaultName is one of the stdio faults, or "" for none (unset or empty).
func FaultName(env Lookup) (string, error) { return faultOf(env, Faults) }

func faultOf(env Lookup, faults []string) (string, error) {
	v, ok := env(Fault)
	if !ok || v == "" {
		return "", nil
	}
	for _, f := range faults {
		if v == f {
			return f, nil
		}
	}
	return "", errorf("%s must be one of [%s]", Fault, strings.Join(faults, ", "))
}

// dec is a number as java.math.BigDecimal reads it: value = unscaled × 10^-scale.
type dec struct {
	unscaled *big.Int
	scale    *big.Int
}

var (
	intMin = big.NewInt(-2147483648)
	intMax = big.NewInt(2147483647)
)

func decimal(env Lookup, name string) (dec, error) {
	raw, err := Required(env, name)
	if err != nil {
		return dec{}, err
	}
	text := javaTrim(raw)
	lower := strings.ToLower(text)
	if lower == "nan" || strings.Contains(lower, "inf") {
		return dec{}, errorf("%s must be finite", name)
	}
	d, ok := parseBigDecimal(text)
	if !ok {
		return dec{}, errorf("%s must be numeric", name)
	}
	return d, nil
}

// javaTrim is String.trim: it strips every code unit up to U+0020 at both ends, and nothing else.
func javaTrim(s string) string {
	return strings.TrimFunc(s, func(r rune) bool { return r <= 0x20 })
}

// digitValue is Character.digit(c, 10) for one code point: a BMP decimal digit (Nd) gives its value.
func digitValue(r rune) int {
	if r >= '0' && r <= '9' {
		return int(r - '0')
	}
	// Java reads UTF-16 code units one at a time: half of a surrogate pair is never a digit.
	if r > 0xffff || !unicode.Is(unicode.Nd, r) {
		return -1
	}
	// Nd digits come in contiguous runs of whole decades starting at zero.
	start := r
	for unicode.Is(unicode.Nd, start-1) {
		start--
	}
	return int(r-start) % 10
}

// parseBigDecimal follows new BigDecimal(String): sign? digits with at most one '.', then e|E sign? digits.
func parseBigDecimal(text string) (dec, bool) {
	if !utf8.ValidString(text) {
		return dec{}, false
	}
	runes := []rune(text)
	i, negative := 0, false
	if i < len(runes) && (runes[i] == '+' || runes[i] == '-') {
		negative = runes[i] == '-'
		i++
	}
	var digits strings.Builder
	fractionDigits, sawPoint := 0, false
	for ; i < len(runes); i++ {
		c := runes[i]
		if c == '.' {
			if sawPoint {
				return dec{}, false
			}
			sawPoint = true
			continue
		}
		if c == 'e' || c == 'E' {
			break
		}
		d := digitValue(c)
		if d < 0 {
			return dec{}, false
		}
		digits.WriteByte(byte('0' + d))
		if sawPoint {
			fractionDigits++
		}
	}
	if digits.Len() == 0 {
		return dec{}, false
	}
	exponent := big.NewInt(0)
	if i < len(runes) {
		i++ // the e or E
		exponentNegative := false
		if i < len(runes) && (runes[i] == '+' || runes[i] == '-') {
			exponentNegative = runes[i] == '-'
			i++
		}
		var exponentDigits strings.Builder
		for ; i < len(runes); i++ {
			d := digitValue(runes[i])
			if d < 0 {
				return dec{}, false
			}
			exponentDigits.WriteByte(byte('0' + d))
		}
		if exponentDigits.Len() == 0 {
			return dec{}, false
		}
		exponent.SetString(exponentDigits.String(), 10)
		if exponentNegative {
			exponent.Neg(exponent)
		}
		if exponent.Cmp(intMin) < 0 || exponent.Cmp(intMax) > 0 {
			return dec{}, false
		}
	}
	scale := new(big.Int).Sub(big.NewInt(int64(fractionDigits)), exponent)
	if scale.Cmp(intMin) < 0 || scale.Cmp(intMax) > 0 {
		return dec{}, false
	}
	unscaled, _ := new(big.Int).SetString(digits.String(), 10)
	if negative {
		unscaled.Neg(unscaled)
	}
	return dec{unscaled, scale}, true
}

const maxSafe = 9007199254740991

// wholeSeconds: whole units only, within the safe-integer range (state times are bound into canonical JSON).
func wholeSeconds(name string, d dec) (int64, error) { return wholeUnits(name, d, "seconds") }

func wholeUnits(name string, d dec, unit string) (int64, error) {
	magnitude := new(big.Int).Abs(d.unscaled)
	if magnitude.Sign() == 0 {
		return 0, nil
	}
	text := magnitude.String()
	trailingZeros := int64(len(text) - len(strings.TrimRight(text, "0")))
	if d.scale.Cmp(big.NewInt(trailingZeros)) > 0 {
		return 0, errorf("%s must be a whole number of %s", name, unit)
	}
	// 2^53-1 has 16 digits: more digits after scaling is too large, decided without computing 10^-scale.
	if new(big.Int).Sub(big.NewInt(int64(len(text))), d.scale).Cmp(big.NewInt(16)) > 0 {
		return 0, errorf("%s is too large", name)
	}
	whole := new(big.Int)
	if d.scale.Sign() >= 0 {
		whole.Quo(d.unscaled, new(big.Int).Exp(big.NewInt(10), d.scale, nil))
	} else {
		whole.Mul(d.unscaled, new(big.Int).Exp(big.NewInt(10), new(big.Int).Neg(d.scale), nil))
	}
	if whole.Cmp(big.NewInt(maxSafe)) > 0 {
		return 0, errorf("%s is too large", name)
	}
	return whole.Int64(), nil
}
