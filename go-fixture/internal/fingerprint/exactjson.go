// Package fingerprint holds the lab's keyed request fingerprint in Go: a strict JSON parser that never rounds a
// number, canonical JSON, the HMAC binding of the opaque fields and the SHA-256 of the payload. It must give the
// same text, digest and error message as the Java (vectors/) and TypeScript (ts-fixture/src/) implementations on
// every input (docs/fingerprint.md).
//
// Values are Go values: nil (null), bool, int64 (a safe integer), Inexact (a number literal that is not one),
// string, []any and map[string]any. Go strings are UTF-8; a JSON string holding an unpaired UTF-16 surrogate
// (only an escape can spell one) is kept with that surrogate encoded as three bytes (WTF-8), which is not valid
// UTF-8, so the canonicaliser can refuse it with its path, as the other languages do.
package fingerprint

import (
	"fmt"
	"math/big"
	"strings"
	"unicode/utf8"
)

// Limits shared with ExactJson.java and exact-json.ts.
const (
	MaxParseDepth          = 1100
	MaxNumberLiteralLength = 1000
	MaxSafeInteger         = 9007199254740991
)

// Inexact is a number literal that is not exactly an integer within ±(2^53−1).
type Inexact struct {
	Literal string
	// Fraction is true for a value with a fractional part, false for an integer outside the safe range.
	Fraction bool
}

// SyntaxError is text that is not one JSON value. Its wording is this parser's own (the other languages word
// syntax errors their own way; only the rejection must agree).
type SyntaxError struct{ msg string }

func (e *SyntaxError) Error() string { return e.msg }

// ValueError is valid JSON holding something no fingerprint can bind; the message names the JSON path and is
// the same in every language.
type ValueError struct{ msg string }

func (e *ValueError) Error() string { return e.msg }

// ParseExact parses one JSON text (RFC 8259, no byte order mark, surrounding whitespace allowed).
func ParseExact(text []byte) (any, error) {
	p := &parser{text: text}
	p.skipWhitespace()
	v, err := p.value(0, "$")
	if err != nil {
		return nil, err
	}
	p.skipWhitespace()
	if p.pos != len(text) {
		return nil, p.fail("unexpected content after the JSON value")
	}
	return v, nil
}

var maxSafe = big.NewInt(MaxSafeInteger)

// ClassifyNumberLiteral decides from a literal's digits whether it is exactly a safe integer.
func ClassifyNumberLiteral(literal string) (any, error) {
	s := literal
	negative := strings.HasPrefix(s, "-")
	if negative {
		s = s[1:]
	}
	intPart, rest := s, ""
	if i := strings.IndexAny(s, ".eE"); i >= 0 {
		intPart, rest = s[:i], s[i:]
	}
	fraction, exponentText := "", "0"
	if strings.HasPrefix(rest, ".") {
		rest = rest[1:]
		end := strings.IndexAny(rest, "eE")
		if end < 0 {
			end = len(rest)
		}
		fraction, rest = rest[:end], rest[end:]
	}
	if rest != "" {
		exponentText = strings.TrimPrefix(rest[1:], "+")
	}
	if intPart == "" || !allDigits(intPart) || (strings.Contains(s, ".") && fraction == "") || !allDigits(fraction) {
		return nil, &SyntaxError{"invalid JSON: malformed number " + literal}
	}
	digits := strings.TrimLeft(intPart+fraction, "0")
	if digits == "" {
		return int64(0), nil // every spelling of zero, -0 included, is the integer 0
	}
	exponent, ok := new(big.Int).SetString(exponentText, 10)
	if !ok {
		return nil, &SyntaxError{"invalid JSON: malformed number " + literal}
	}
	exponent.Sub(exponent, big.NewInt(int64(len(fraction))))
	trimmed := strings.TrimRight(digits, "0")
	exponent.Add(exponent, big.NewInt(int64(len(digits)-len(trimmed))))
	digits = trimmed
	if exponent.Sign() < 0 {
		return Inexact{literal, true}, nil
	}
	if new(big.Int).Add(big.NewInt(int64(len(digits))), exponent).Cmp(big.NewInt(16)) > 0 {
		return Inexact{literal, false}, nil
	}
	magnitude, _ := new(big.Int).SetString(digits, 10)
	magnitude.Mul(magnitude, new(big.Int).Exp(big.NewInt(10), exponent, nil))
	if magnitude.Cmp(maxSafe) > 0 {
		return Inexact{literal, false}, nil
	}
	v := magnitude.Int64()
	if negative {
		v = -v
	}
	return v, nil
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

type parser struct {
	text []byte
	pos  int
}

func (p *parser) fail(what string) error {
	return &SyntaxError{fmt.Sprintf("invalid JSON at offset %d: %s", p.pos, what)}
}

func (p *parser) skipWhitespace() {
	for p.pos < len(p.text) {
		switch p.text[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *parser) value(depth int, path string) (any, error) {
	if p.pos >= len(p.text) {
		return nil, p.fail("unexpected end of input")
	}
	switch c := p.text[p.pos]; {
	case c == '{':
		return p.object(depth+1, path)
	case c == '[':
		return p.array(depth+1, path)
	case c == '"':
		return p.string()
	case c == 't':
		return p.literal("true", true)
	case c == 'f':
		return p.literal("false", false)
	case c == 'n':
		return p.literal("null", nil)
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	default:
		// The whole character, not its first byte: a byte order mark is named '\ufeff' (as Python names it), not 'ï'.
		r, _ := utf8.DecodeRune(p.text[p.pos:])
		return nil, p.fail(fmt.Sprintf("unexpected character %q", r))
	}
}

func (p *parser) literal(word string, v any) (any, error) {
	if !strings.HasPrefix(string(p.text[p.pos:min(len(p.text), p.pos+len(word))]), word) {
		return nil, p.fail("expected " + word)
	}
	p.pos += len(word)
	return v, nil
}

// number scans -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?.
func (p *parser) number() (any, error) {
	t, start, i := p.text, p.pos, p.pos
	digits := func() int {
		n := 0
		for i < len(t) && t[i] >= '0' && t[i] <= '9' {
			i++
			n++
		}
		return n
	}
	if i < len(t) && t[i] == '-' {
		i++
	}
	if i < len(t) && t[i] == '0' {
		i++
	} else if digits() == 0 {
		return nil, p.fail("malformed number")
	}
	if i < len(t) && t[i] == '.' {
		save := i
		i++
		if digits() == 0 {
			i = save
		}
	}
	if i < len(t) && (t[i] == 'e' || t[i] == 'E') {
		save := i
		i++
		if i < len(t) && (t[i] == '+' || t[i] == '-') {
			i++
		}
		if digits() == 0 {
			i = save
		}
	}
	literal := string(t[start:i])
	if len(literal) > MaxNumberLiteralLength {
		return nil, p.fail(fmt.Sprintf("number literal longer than %d characters", MaxNumberLiteralLength))
	}
	p.pos = i
	return ClassifyNumberLiteral(literal)
}

func hexValue(b []byte) (rune, bool) {
	var r rune
	for _, c := range b {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}

// appendWTF8 appends one code point, a lone surrogate included, in the generalised UTF-8 form.
func appendWTF8(out []byte, r rune) []byte {
	if r >= 0xd800 && r <= 0xdfff {
		return append(out, 0xe0|byte(r>>12), 0x80|byte(r>>6)&0x3f, 0x80|byte(r)&0x3f)
	}
	return utf8.AppendRune(out, r)
}

func (p *parser) string() (string, error) {
	t := p.text
	p.pos++ // opening quote
	var out []byte
	runStart := p.pos
	pendingHigh := -1 // where in out a lone high surrogate escape was just written
	for {
		if p.pos >= len(t) {
			return "", p.fail("unterminated string")
		}
		c := t[p.pos]
		if c == '"' {
			out = append(out, t[runStart:p.pos]...)
			p.pos++
			return string(out), nil
		}
		if c < 0x20 {
			return "", p.fail("unescaped control character in string")
		}
		if c != '\\' {
			if c >= 0x80 {
				r, size := utf8.DecodeRune(t[p.pos:])
				if r == utf8.RuneError && size <= 1 {
					return "", p.fail("invalid UTF-8")
				}
				p.pos += size
			} else {
				p.pos++
			}
			continue
		}
		if runStart < p.pos {
			out = append(out, t[runStart:p.pos]...)
			pendingHigh = -1
		}
		if p.pos+1 >= len(t) {
			return "", p.fail("unterminated string")
		}
		high := -1
		switch e := t[p.pos+1]; e {
		case '"', '\\', '/':
			out = append(out, e)
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			if p.pos+6 > len(t) {
				return "", p.fail(`invalid \u escape`)
			}
			r, ok := hexValue(t[p.pos+2 : p.pos+6])
			if !ok {
				return "", p.fail(`invalid \u escape`)
			}
			switch {
			case r >= 0xdc00 && r <= 0xdfff && pendingHigh >= 0:
				// The low half right after a high half: one astral character.
				h := rune(out[pendingHigh]&0x0f)<<12 | rune(out[pendingHigh+1]&0x3f)<<6 | rune(out[pendingHigh+2]&0x3f)
				out = utf8.AppendRune(out[:pendingHigh], 0x10000+(h-0xd800)<<10+(r-0xdc00))
			case r >= 0xd800 && r <= 0xdbff:
				high = len(out)
				out = appendWTF8(out, r)
			default:
				out = appendWTF8(out, r)
			}
			p.pos += 4
		default:
			return "", p.fail("invalid escape")
		}
		pendingHigh = high
		p.pos += 2
		runStart = p.pos
	}
}

func (p *parser) enter(depth int) error {
	if depth > MaxParseDepth {
		return p.fail(fmt.Sprintf("nesting deeper than %d levels", MaxParseDepth))
	}
	p.pos++
	p.skipWhitespace()
	return nil
}

func (p *parser) array(depth int, path string) (any, error) {
	if err := p.enter(depth); err != nil {
		return nil, err
	}
	items := []any{}
	if p.pos < len(p.text) && p.text[p.pos] == ']' {
		p.pos++
		return items, nil
	}
	for {
		item, err := p.value(depth, fmt.Sprintf("%s[%d]", path, len(items)))
		if err != nil {
			return nil, err
		}
		items = append(items, item)
		p.skipWhitespace()
		if p.pos >= len(p.text) {
			return nil, p.fail("expected , or ] in array")
		}
		c := p.text[p.pos]
		if c == ']' {
			p.pos++
			return items, nil
		}
		if c != ',' {
			return nil, p.fail("expected , or ] in array")
		}
		p.pos++
		p.skipWhitespace()
	}
}

func (p *parser) object(depth int, path string) (any, error) {
	if err := p.enter(depth); err != nil {
		return nil, err
	}
	members := map[string]any{}
	if p.pos < len(p.text) && p.text[p.pos] == '}' {
		p.pos++
		return members, nil
	}
	for {
		if p.pos >= len(p.text) || p.text[p.pos] != '"' {
			return nil, p.fail("expected a string key")
		}
		key, err := p.string()
		if err != nil {
			return nil, err
		}
		if !utf8.ValidString(key) {
			return nil, &ValueError{path + ": " + UnpairedSurrogateInKey}
		}
		p.skipWhitespace()
		if p.pos >= len(p.text) || p.text[p.pos] != ':' {
			return nil, p.fail("expected : after key")
		}
		p.pos++
		p.skipWhitespace()
		v, err := p.value(depth, path+PathSegment(key))
		if err != nil {
			return nil, err
		}
		members[key] = v // a later duplicate replaces an earlier one
		p.skipWhitespace()
		if p.pos >= len(p.text) {
			return nil, p.fail("expected , or } in object")
		}
		c := p.text[p.pos]
		if c == '}' {
			p.pos++
			return members, nil
		}
		if c != ',' {
			return nil, p.fail("expected , or } in object")
		}
		p.pos++
		p.skipWhitespace()
	}
}
