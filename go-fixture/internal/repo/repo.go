// Package repo finds the repository the fixture was built in (for the shared vectors, rule tables and the
// bridge jar).
package repo

import (
	"fmt"
	"os"
	"path/filepath"
)

// RootAbove walks up from dir to the folder holding vectors/rules.
func RootAbove(dir string) (string, error) {
	for {
		if info, err := os.Stat(filepath.Join(dir, "vectors", "rules")); err == nil && info.IsDir() {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no vectors/rules above %s", dir)
		}
		dir = parent
	}
}

// Root is RootAbove the working directory (go test runs in the package's folder).
func Root() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	return RootAbove(dir)
}
