package fingerprint

import "unicode/utf8"

// IsBlankLine: only spaces, tabs and carriage returns.
func IsBlankLine(b []byte) bool {
	for _, c := range b {
		if c != ' ' && c != '\t' && c != '\r' {
			return false
		}
	}
	return true
}

// LineOutcome is one output line and, for a bad line, its reason.
type LineOutcome struct {
	Output string
	Error  string
}

// FingerprintLine is the digest of one non-blank JSON Lines input line (docs/fingerprint.md, "The CLIs").
func FingerprintLine(key Key, line []byte) LineOutcome {
	if !utf8.Valid(line) {
		return LineOutcome{"!invalid UTF-8", "invalid UTF-8"}
	}
	name, named := "", false
	fail := func(err error) LineOutcome {
		if named {
			return LineOutcome{name + "\t!" + err.Error(), err.Error()}
		}
		return LineOutcome{"!" + err.Error(), err.Error()}
	}
	v, err := ParseExact(line)
	if err != nil {
		return fail(err)
	}
	if name, named, err = ReadName(v); err != nil {
		return fail(err)
	}
	if named {
		v = v.(map[string]any)["request"]
	}
	request, err := ReadLogicalRequest(v)
	if err != nil {
		return fail(err)
	}
	digest, err := Fingerprint(key, request)
	if err != nil {
		return fail(err)
	}
	if named {
		return LineOutcome{Output: name + "\t" + digest}
	}
	return LineOutcome{Output: digest}
}
