package fingerprint

import (
	"math"
	"slices"
	"strconv"
	"sync"
	"unicode/utf8"
)

// The fast path of the canonical text: the same bytes as emit, appended to a byte slice, with no JSON paths. A path
// is only read when a value is refused, so building one for every member and element (most of emit's cost) is
// left to emit, which runs again over a refused value to name its path and message.

// appendCanonical appends v's canonical text to buf; ok is false when v has no canonical text (emit says why).
func appendCanonical(buf []byte, v any, depth int) ([]byte, bool) {
	switch x := v.(type) {
	case nil:
		return append(buf, "null"...), true
	case bool:
		return strconv.AppendBool(buf, x), true
	case int64:
		return appendSafeInteger(buf, x)
	case int:
		return appendSafeInteger(buf, int64(x))
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) || x != math.Trunc(x) || math.Abs(x) > MaxSafeInteger {
			return buf, false
		}
		return strconv.AppendInt(buf, int64(x), 10), true // -0 becomes 0
	case string:
		if !utf8.ValidString(x) {
			return buf, false
		}
		return appendQuoted(buf, x), true
	case []any:
		if depth+1 > MaxCanonicalDepth {
			return buf, false
		}
		buf = append(buf, '[')
		for i, item := range x {
			if i > 0 {
				buf = append(buf, ',')
			}
			var ok bool
			if buf, ok = appendCanonical(buf, item, depth+1); !ok {
				return buf, false
			}
		}
		return append(buf, ']'), true
	case map[string]any:
		if depth+1 > MaxCanonicalDepth {
			return buf, false
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			if !utf8.ValidString(k) {
				return buf, false
			}
			keys = append(keys, k)
		}
		// Byte order of UTF-8 is code-point order.
		slices.Sort(keys)
		buf = append(buf, '{')
		for i, k := range keys {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = appendQuoted(buf, k)
			buf = append(buf, ':')
			var ok bool
			if buf, ok = appendCanonical(buf, x[k], depth+1); !ok {
				return buf, false
			}
		}
		return append(buf, '}'), true
	default:
		return buf, false // Inexact, or a Go type that is not JSON
	}
}

func appendSafeInteger(buf []byte, n int64) ([]byte, bool) {
	if n > MaxSafeInteger || n < -MaxSafeInteger {
		return buf, false
	}
	return strconv.AppendInt(buf, n, 10), true
}

const hexDigits = "0123456789abcdef"

// appendQuoted is QuoteString for a byte slice; s must be valid UTF-8.
func appendQuoted(buf []byte, s string) []byte {
	buf = append(buf, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		buf = append(buf, s[start:i]...)
		switch c {
		case '"':
			buf = append(buf, '\\', '"')
		case '\\':
			buf = append(buf, '\\', '\\')
		case '\b':
			buf = append(buf, '\\', 'b')
		case '\f':
			buf = append(buf, '\\', 'f')
		case '\n':
			buf = append(buf, '\\', 'n')
		case '\r':
			buf = append(buf, '\\', 'r')
		case '\t':
			buf = append(buf, '\\', 't')
		default:
			buf = append(buf, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
		}
		start = i + 1
	}
	buf = append(buf, s[start:]...)
	return append(buf, '"')
}

// canonicalBytes appends the canonical text of v (at path, depth levels down) to buf, or returns emit's error.
func canonicalBytes(buf []byte, v any, path string, depth int) ([]byte, error) {
	if out, ok := appendCanonical(buf, v, depth); ok {
		return out, nil
	}
	text, err := CanonicalAt(v, path, depth)
	if err != nil {
		return buf, err
	}
	// the fast path refuses only what emit refuses; should they ever differ, emit's text is the contract
	return append(buf, text...), nil
}

// buffers keeps the payload buffers of earlier fingerprints: a 64 KiB payload would otherwise grow a new one
// from nothing at every call.
var buffers = sync.Pool{New: func() any { b := make([]byte, 0, 1024); return &b }}
