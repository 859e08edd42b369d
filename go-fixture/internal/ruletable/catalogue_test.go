package ruletable

import (
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// readers names, for each shared file of <repository>/vectors/, the Go test that reads it (relative to
// go-fixture/). A file added to vectors/ or vectors/rules/ fails TestEverySharedFileIsReadOrSaidNotToApply until a
// Go test reads it or notApplicable says why it does not concern the Go fixture.
var readers = map[string]string{
	"fingerprint_vectors.json":       "internal/fingerprint/vectors_test.go",
	"rules/guarded-arguments.json":   "internal/guarded/guarded_test.go",
	"rules/input-responses.json":     "internal/guarded/guarded_test.go",
	"rules/stdio-jvm-options.json":   "internal/bridge/client_test.go",
	"rules/case-jvm-options.json":    "internal/bridge/client_test.go",
	"rules/strict-frames.json":       "internal/frames/verdict_test.go",
	"rules/tools.json":               "internal/tooltable/tooltable_test.go",
	"rules/trusted-environment.json": "internal/config/config_test.go",
}

// notApplicable: replay/conflict/reject verdicts of the shared ledger (Java's shared-store), which the fixture
// reaches through the bridge and implements none of (the TypeScript and Python tests do not read it either).
var notApplicable = map[string]string{
	"portable-continuation-v1.json": "the ledger's policy vectors, judged by the Java ledger behind the bridge",
	// how a status read-back settles a lost reply: the Java client rules and the Java checker's reading
	"rules/status-observation.json": "the recovery rules of a status read-back, held by the Java client code and the checker",
	// the client drivers' script check: read by each driver's own suite (go-client/internal/driver/rules_test.go)
	"rules/client-script.json": "the step-script refusals of the four client drivers, read by each driver's own tests",
}

func sharedFiles(t *testing.T, root string) []string {
	t.Helper()
	var files []string
	for _, pattern := range []string{"*.json", "rules/*.json"} {
		matches, err := filepath.Glob(filepath.Join(root, "vectors", pattern))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range matches {
			rel, _ := filepath.Rel(filepath.Join(root, "vectors"), m)
			files = append(files, filepath.ToSlash(rel))
		}
	}
	sort.Strings(files)
	return files
}

func listed() []string {
	var all []string
	for f := range readers {
		all = append(all, f)
	}
	for f := range notApplicable {
		all = append(all, f)
	}
	sort.Strings(all)
	return all
}

func TestEverySharedFileIsReadOrSaidNotToApply(t *testing.T) {
	root, err := RepositoryRoot()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := sharedFiles(t, root), listed(); !reflect.DeepEqual(got, want) {
		t.Fatalf("shared files in vectors/: %v; read by a Go test or said not to apply: %v", got, want)
	}
}

// TestEachReaderNamesItsFile keeps the list honest: the reader's source must name the file it is said to read.
func TestEachReaderNamesItsFile(t *testing.T) {
	root, err := RepositoryRoot()
	if err != nil {
		t.Fatal(err)
	}
	for table, reader := range readers {
		if _, err := os.Stat(filepath.Join(root, "vectors", filepath.FromSlash(table))); err != nil {
			t.Errorf("vectors/%s: %v", table, err)
		}
		source, err := os.ReadFile(filepath.Join(root, "go-fixture", filepath.FromSlash(reader)))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(source), `"`+filepath.Base(table)+`"`) {
			t.Errorf("%s does not read %s", reader, table)
		}
	}
}

func TestTheCatalogueSeesANewTable(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "vectors", "rules"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"fingerprint_vectors.json", "rules/new-rule.json"} {
		if err := os.WriteFile(filepath.Join(root, "vectors", filepath.FromSlash(f)), []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if got := sharedFiles(t, root); !reflect.DeepEqual(got, []string{"fingerprint_vectors.json", "rules/new-rule.json"}) {
		t.Fatalf("%v", got)
	}
}

// TestAMissingTableFailsTheReader: Load reports the absent file as an error (its callers t.Fatal on it), never as
// an empty table.
func TestAMissingTableFailsTheReader(t *testing.T) {
	if _, err := Load("no-such-table.json"); err == nil || !strings.Contains(err.Error(), "no-such-table.json") {
		t.Fatalf("%v", err)
	}
}
