package fingerprint

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Messages shared with CanonicalJson.java and canonical-json.ts (docs/fingerprint.md).
const (
	MaxCanonicalDepth      = 1000
	NotAnInteger           = "number must be an integer in the interoperable safe range"
	OutsideSafeRange       = "integer is outside the interoperable safe range"
	UnpairedSurrogate      = "unpaired UTF-16 surrogate is not valid Unicode"
	UnpairedSurrogateInKey = "object key with an unpaired UTF-16 surrogate is not valid Unicode"
)

// CanonicalError is a value that has no canonical text; the message starts with its JSON path.
type CanonicalError struct{ msg string }

func (e *CanonicalError) Error() string { return e.msg }

func canonicalErr(path, what string) error { return &CanonicalError{path + ": " + what} }

// Canonical is the canonical JSON text of v (seed spec §2.3).
func Canonical(v any) (string, error) { return CanonicalAt(v, "$", 0) }

// CanonicalAt is the canonical text of v found at path, depth levels below the value being canonicalised.
func CanonicalAt(v any, path string, depth int) (string, error) {
	if out, ok := appendCanonical(nil, v, depth); ok {
		return string(out), nil
	}
	var b strings.Builder
	if err := emit(&b, v, path, depth); err != nil {
		return "", err
	}
	return b.String(), nil
}

// RequireScalarValues refuses a string holding an unpaired surrogate (or any other byte sequence that is not
// UTF-8, which only Go code, never the parser, can make).
func RequireScalarValues(s, path string) error {
	if !utf8.ValidString(s) {
		return canonicalErr(path, UnpairedSurrogate)
	}
	return nil
}

// PathSegment is ".key" as an error path shows it: unpaired surrogates and C0 controls escaped as \uXXXX.
func PathSegment(key string) string {
	var b strings.Builder
	b.WriteByte('.')
	for i := 0; i < len(key); {
		r, size := decodeWTF8(key[i:])
		if r < 0x20 || (r >= 0xd800 && r <= 0xdfff) {
			fmt.Fprintf(&b, "\\u%04x", r)
		} else {
			b.WriteString(key[i : i+size])
		}
		i += size
	}
	return b.String()
}

// decodeWTF8 reads one code point, a three-byte lone surrogate included; another invalid byte reads as itself
// (U+0080…U+00FF would be wrong, so it reads as U+FFFD, which no rule here treats specially).
func decodeWTF8(s string) (rune, int) {
	if len(s) >= 3 && s[0] == 0xed && s[1] >= 0xa0 && s[1] <= 0xbf && s[2] >= 0x80 && s[2] <= 0xbf {
		return rune(s[0]&0x0f)<<12 | rune(s[1]&0x3f)<<6 | rune(s[2]&0x3f), 3
	}
	return utf8.DecodeRuneInString(s)
}

// UTF16Length is the string's length in UTF-16 code units, as Java's String.length and JavaScript count it.
func UTF16Length(s string) int {
	n := 0
	for i := 0; i < len(s); {
		r, size := decodeWTF8(s[i:])
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
		i += size
	}
	return n
}

// QuoteString writes a JSON string with only the contract's escapes; s must be valid UTF-8.
func QuoteString(b *strings.Builder, s string) {
	b.Write(appendQuoted(make([]byte, 0, len(s)+2), s))
}

func enter(depth int, path string) (int, error) {
	if depth+1 > MaxCanonicalDepth {
		return 0, canonicalErr(path, fmt.Sprintf("nesting deeper than %d levels", MaxCanonicalDepth))
	}
	return depth + 1, nil
}

func emitInteger(b *strings.Builder, n int64, path string) error {
	if n > MaxSafeInteger || n < -MaxSafeInteger {
		return canonicalErr(path, OutsideSafeRange)
	}
	b.WriteString(strconv.FormatInt(n, 10))
	return nil
}

func emit(b *strings.Builder, v any, path string, depth int) error {
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case int64:
		return emitInteger(b, x, path)
	case int:
		return emitInteger(b, int64(x), path)
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) || x != math.Trunc(x) {
			return canonicalErr(path, NotAnInteger)
		}
		if math.Abs(x) > MaxSafeInteger {
			return canonicalErr(path, OutsideSafeRange)
		}
		b.WriteString(strconv.FormatInt(int64(x), 10)) // -0 becomes 0
	case Inexact:
		if x.Fraction {
			return canonicalErr(path, NotAnInteger)
		}
		return canonicalErr(path, OutsideSafeRange)
	case string:
		if err := RequireScalarValues(x, path); err != nil {
			return err
		}
		QuoteString(b, x)
	case []any:
		inner, err := enter(depth, path)
		if err != nil {
			return err
		}
		b.WriteByte('[')
		for i, item := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := emit(b, item, fmt.Sprintf("%s[%d]", path, i), inner); err != nil {
				return err
			}
		}
		b.WriteByte(']')
	case map[string]any:
		inner, err := enter(depth, path)
		if err != nil {
			return err
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		// Byte order of UTF-8 is code-point order; a lone surrogate's three bytes sort where its code point does.
		slices.Sort(keys)
		b.WriteByte('{')
		for i, k := range keys {
			memberPath := path + PathSegment(k)
			if err := RequireScalarValues(k, memberPath); err != nil {
				return err
			}
			if i > 0 {
				b.WriteByte(',')
			}
			QuoteString(b, k)
			b.WriteByte(':')
			if err := emit(b, x[k], memberPath, inner); err != nil {
				return err
			}
		}
		b.WriteByte('}')
	default:
		return canonicalErr(path, fmt.Sprintf("unsupported JSON value %T", v))
	}
	return nil
}
