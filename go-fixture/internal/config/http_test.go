package config

import (
	"strings"
	"testing"
)

func httpEnvironment(extra map[string]string) Lookup {
	env := map[string]string{
		ServerDB: "/tmp/x.sqlite3", BackendID: "b", ClockEpoch: "1790035200", AuthorityTTL: "300", ReplayRetentionTTL: "360",
		RequestStateTTL: "600", StateKeyHex: strings.Repeat("ab", 32), FingerprintKeyHex: strings.Repeat("cd", 32),
		BearerTokensFile: "/tmp/tokens.json",
	}
	for k, v := range extra {
		env[k] = v
	}
	return func(name string) (string, bool) { v, ok := env[name]; return v, ok }
}

func TestHTTPModeReadsItsOwnVariablesAndNeedsNoPrincipal(t *testing.T) {
	c, h, err := ReadHTTP(httpEnvironment(nil), false)
	if err != nil || c.Principal != "" || h.TokensFile != "/tmp/tokens.json" || h.ReadTimeoutMs != DefaultHTTPReadTimeoutMs {
		t.Fatalf("%+v %+v %v", c, h, err)
	}
	if c, _, err := ReadHTTP(httpEnvironment(map[string]string{Fault: CloseAfterCommit}), false); err != nil || c.Fault != CloseAfterCommit {
		t.Errorf("close-after-commit over HTTP: %v %v", c.Fault, err)
	}
	if _, h, err := ReadHTTP(httpEnvironment(map[string]string{BearerTokensFile: "", HTTPReadTimeoutMs: "2.5e3"}), true); err != nil ||
		h.TokensFile != "" || h.ReadTimeoutMs != 2500 {
		t.Errorf("conformance without a tokens file: %+v %v", h, err)
	}
	for extra, message := range map[[2]string]string{
		{BearerTokensFile, ""}:            "WIRE_BEARER_TOKENS_FILE is required",
		{Fault, "crash"}:                  "WIRE_FAULT must be one of [drop-after-commit, exit-after-ledger-insert, exit-after-issue-insert, exit-after-partial-first-commit, close-after-commit]",
		{HTTPReadTimeoutMs, "0"}:          "WIRE_HTTP_READ_TIMEOUT_MS must be positive",
		{HTTPReadTimeoutMs, "-5"}:         "WIRE_HTTP_READ_TIMEOUT_MS must be positive",
		{HTTPReadTimeoutMs, "1.5"}:        "WIRE_HTTP_READ_TIMEOUT_MS must be a whole number of milliseconds",
		{HTTPReadTimeoutMs, "ten"}:        "WIRE_HTTP_READ_TIMEOUT_MS must be numeric",
		{HTTPReadTimeoutMs, "2147483648"}: "WIRE_HTTP_READ_TIMEOUT_MS is too large",
		{ServerDB, ""}:                    "WIRE_SERVER_DB is required",
	} {
		_, _, err := ReadHTTP(httpEnvironment(map[string]string{extra[0]: extra[1]}), false)
		if err == nil || err.Error() != message {
			t.Errorf("%s=%q: got %v, want %q", extra[0], extra[1], err, message)
		}
	}
	// stdio still refuses the HTTP fault.
	if _, err := FaultName(httpEnvironment(map[string]string{Fault: CloseAfterCommit})); err == nil {
		t.Error("stdio accepted close-after-commit")
	}
}
