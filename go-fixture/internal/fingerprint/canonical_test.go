package fingerprint

import (
	"strings"
	"testing"
)

func canonicalOfText(t *testing.T, text string) (string, error) {
	t.Helper()
	v, err := ParseExact([]byte(text))
	if err != nil {
		return "", err
	}
	return Canonical(v)
}

func TestCanonicalText(t *testing.T) {
	cases := []struct{ in, want string }{
		{`{"b":1,"a":[true,false,null]}`, `{"a":[true,false,null],"b":1}`},
		{`1.0`, `1`}, {`1e2`, `100`}, {`-0`, `0`}, {`-0.0e5`, `0`}, {`9007199254740991`, `9007199254740991`},
		{`-9007199254740991`, `-9007199254740991`}, {`12.50e1`, `125`}, {`0.1e1`, `1`},
		{`"\u0000\u001f\b\f\n\r\t\"\\/\u007f\u2028"`, "\"\\u0000\\u001f\\b\\f\\n\\r\\t\\\"\\\\/\u007f\u2028\""},
		{`"\ud83d\ude00"`, "\"\U0001F600\""},
		{`{"\ue000":1,"\ud800\udc00":2}`, "{\"\ue000\":1,\"\U00010000\":2}"},
		{`{"b":1,"a":2,"a":3}`, `{"a":3,"b":1}`},
		{` { "x" : [ ] , "y" : { } } `, `{"x":[],"y":{}}`},
		{`{"10":1,"2":2,"__proto__":3}`, `{"10":1,"2":2,"__proto__":3}`},
	}
	for _, c := range cases {
		got, err := canonicalOfText(t, c.in)
		if err != nil || got != c.want {
			t.Errorf("%s: %q, %v; want %q", c.in, got, err, c.want)
		}
	}
}

func TestCanonicalMessages(t *testing.T) {
	cases := []struct{ in, want string }{
		{`{"a":1.5}`, "$.a: " + NotAnInteger},
		{`{"a":[0,1e-1]}`, "$.a[1]: " + NotAnInteger},
		{`1.0000000000000000001`, "$: " + NotAnInteger},
		{`{"a":9007199254740992}`, "$.a: " + OutsideSafeRange},
		{`{"a":-9007199254740992}`, "$.a: " + OutsideSafeRange},
		{`{"a":1e400}`, "$.a: " + OutsideSafeRange},
		{`{"a":{"b":"x\ud800"}}`, "$.a.b: " + UnpairedSurrogate},
		{`["\udc00\ud800"]`, "$[0]: " + UnpairedSurrogate},
		{`{"a":{"k\ud800":1}}`, "$.a: " + UnpairedSurrogateInKey},
		{`{"z":1.5,"a":2.5}`, "$.a: " + NotAnInteger}, // canonical order decides which error is reported
		{`{"a\u0001b":1.5}`, `$.a\u0001b: ` + NotAnInteger},
	}
	for _, c := range cases {
		_, err := canonicalOfText(t, c.in)
		if err == nil || err.Error() != c.want {
			t.Errorf("%s: %v; want %q", c.in, err, c.want)
		}
	}
}

func TestKeysBuiltInCodeAreNamedThemselves(t *testing.T) {
	lone := string([]byte{0xed, 0xa0, 0x80})
	_, err := Canonical(map[string]any{"a": map[string]any{"k" + lone: 1}})
	if err == nil || err.Error() != `$.a.k\ud800: `+UnpairedSurrogate {
		t.Fatal(err)
	}
	if _, err := Canonical(map[string]any{"f": 0.5}); err == nil || err.Error() != "$.f: "+NotAnInteger {
		t.Fatal(err)
	}
}

func TestNestingLimits(t *testing.T) {
	deep := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	if _, err := canonicalOfText(t, deep(1000)); err != nil {
		t.Fatalf("1000 levels: %v", err)
	}
	_, err := canonicalOfText(t, deep(1001))
	want := "$" + strings.Repeat("[0]", 1000) + ": nesting deeper than 1000 levels"
	if err == nil || err.Error() != want {
		t.Fatalf("1001 levels: %.80v", err)
	}
	if _, err := ParseExact([]byte(deep(1100))); err != nil {
		t.Fatalf("parse 1100: %v", err)
	}
	if _, err := ParseExact([]byte(deep(1101))); err == nil {
		t.Fatal("parse 1101 accepted")
	}
	if _, err := ParseExact([]byte("1" + strings.Repeat("0", 1000))); err == nil {
		t.Fatal("a 1,001-character literal accepted")
	}
}

func TestSyntaxIsStrict(t *testing.T) {
	for _, in := range []string{``, ` `, `{`, `{"a":1,}`, `[1,]`, `01`, `1.`, `.5`, `+1`, `NaN`, `'a'`, `"a` + "\x01" + `"`,
		`"\x"`, `"\u12"`, `tru`, `{"a" 1}`, `{} {}`, "\xef\xbb\xbf{}", `{"a":"` + "\xff" + `"}`, `[1 2]`} {
		if _, err := ParseExact([]byte(in)); err == nil {
			t.Errorf("%q accepted", in)
		}
	}
}

// A character the grammar does not allow is named whole, as Python's parser names it; found by lab vectors' edge
// inputs, where a byte order mark was named by its first byte ('ï').
func TestAnUnexpectedCharacterIsNamedWhole(t *testing.T) {
	for in, want := range map[string]string{
		"\xef\xbb\xbf{}": `invalid JSON at offset 0: unexpected character '\ufeff'`,
		`[1,é]`:          `invalid JSON at offset 3: unexpected character 'é'`,
		`.5`:             `invalid JSON at offset 0: unexpected character '.'`,
	} {
		if _, err := ParseExact([]byte(in)); err == nil || err.Error() != want {
			t.Errorf("%q: %v, want %s", in, err, want)
		}
	}
}

func TestUTF16Length(t *testing.T) {
	lone := string([]byte{0xed, 0xb0, 0x80})
	for s, n := range map[string]int{"": 0, "abc": 3, "é": 1, "\U0001F600": 2, lone: 1, "a" + lone + "\U0001F600": 4} {
		if got := UTF16Length(s); got != n {
			t.Errorf("%q: %d, want %d", s, got, n)
		}
	}
}
