package bridge

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"

	"lab.continuationreplay/gofixture/internal/repo"
)

// CommandVariable overrides how the fixture starts its bridge: a JSON array of argv strings.
const CommandVariable = "LAB_BRIDGE_COMMAND"

// Inherited and PassedToBridge are the child's whole environment: what it needs to find Java and the ledger,
// never the requestState key or the TTLs (the bridge does not mint).
var (
	Inherited      = []string{"PATH", "LANG", "LC_ALL", "TMPDIR", "HOME", "JAVA_HOME"}
	PassedToBridge = []string{"WIRE_SERVER_DB", "WIRE_BACKEND_ID", "WIRE_PRINCIPAL", "WIRE_CLOCK_EPOCH",
		"WIRE_FINGERPRINT_KEY_HEX", "WIRE_FAULT",
		// the PostgreSQL ledger, when one is configured: its URL, role, and the password's file (or the password)
		"WIRE_LEDGER_URL", "WIRE_LEDGER_USER", "WIRE_LEDGER_PASSWORD_FILE", "WIRE_LEDGER_PASSWORD"}
)

// StdioJVMOptions keep the JVM's own logging off the bridge's stdout, which is its wire; the shared rule table
// vectors/rules/stdio-jvm-options.json holds the same list for every launcher (the tests compare).
var StdioJVMOptions = []string{"-Xlog:disable", "-Xlog:all=warning:stderr", "-XX:+DisplayVMOutputToStderr"}

// CaseJVMOptions: a bridge lives as long as its fixture, mostly one case, so C1, the serial collector and a small
// heap (vectors/rules/case-jvm-options.json, the options the lab gives a case's JVMs).
var CaseJVMOptions = []string{"-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx64m", "-XX:-UsePerfData"}

// ErrCommand is a LAB_BRIDGE_COMMAND that is not a non-empty JSON array of non-empty strings.
var ErrCommand = errors.New(CommandVariable + " must be a JSON array of strings")

// DefaultCommand is java <stdio options> -jar <repository>/bridge/target/bridge.jar, java from JAVA_HOME if set.
func DefaultCommand(repoRoot string, getenv func(string) string) []string {
	java := "java"
	if home := getenv("JAVA_HOME"); home != "" {
		java = filepath.Join(home, "bin", "java")
	}
	argv := append([]string{java}, StdioJVMOptions...)
	argv = append(argv, CaseJVMOptions...)
	return append(argv, "-jar", repo.BridgeJar(repoRoot))
}

// Command is LAB_BRIDGE_COMMAND when set, else DefaultCommand.
func Command(repoRoot string, getenv func(string) string) ([]string, error) {
	configured := getenv(CommandVariable)
	if configured == "" {
		return DefaultCommand(repoRoot, getenv), nil
	}
	var argv []any
	if err := json.Unmarshal([]byte(configured), &argv); err != nil || len(argv) == 0 {
		return nil, ErrCommand
	}
	out := make([]string, len(argv))
	for i, a := range argv {
		s, ok := a.(string)
		if !ok || s == "" {
			return nil, ErrCommand
		}
		out[i] = s
	}
	return out, nil
}

// Environment is the child's whole environment, as KEY=value lines.
func Environment(lookup func(string) (string, bool)) []string {
	var env []string
	for _, names := range [][]string{Inherited, PassedToBridge} {
		for _, name := range names {
			if v, ok := lookup(name); ok {
				env = append(env, name+"="+v)
			}
		}
	}
	return env
}

// OSEnvironment is Environment of this process.
func OSEnvironment() []string { return Environment(os.LookupEnv) }
