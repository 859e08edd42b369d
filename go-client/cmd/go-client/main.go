// Command go-client is the Go SDK client driver (docs/client-drivers.md): go-client SCRIPT RECORDS.
// Exit 0: every step attempted; 2: a script the driver cannot read (one stderr line, nothing started, no record
// file); 1: a defect of the driver itself. Stdout is unused: logs go to stderr.
package main

import (
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"time"

	"lab.continuationreplay/goclient/internal/driver"
)

const sdkModule = "github.com/modelcontextprotocol/go-sdk"

// sdkVersion reads the SDK's version from the binary's own build information, so a record names the SDK that was
// really linked, not the one go.mod asked for.
func sdkVersion() string {
	info, ok := debug.ReadBuildInfo()
	if ok {
		for _, dep := range info.Deps {
			if dep.Path == sdkModule {
				return dep.Version
			}
		}
	}
	return "unknown"
}

func main() {
	started := time.Now()
	os.Exit(run(os.Args[1:], started))
}

func run(args []string, started time.Time) (status int) {
	defer func() {
		if defect := recover(); defect != nil {
			fmt.Fprintf(os.Stderr, "go-client: driver defect: %v\n%s", defect, debug.Stack())
			status = 1
		}
	}()
	if len(args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: go-client SCRIPT RECORDS")
		return 2
	}
	text, err := os.ReadFile(args[0])
	if err != nil {
		fmt.Fprintf(os.Stderr, "script error: cannot read %s (%v)\n", args[0], err)
		return 2
	}
	script, err := driver.Parse(text, os.LookupEnv)
	if err != nil {
		var refused *driver.ScriptError
		if errors.As(err, &refused) {
			fmt.Fprintln(os.Stderr, refused.Line)
			return 2
		}
		fmt.Fprintf(os.Stderr, "go-client: driver defect: %v\n", err)
		return 1
	}
	records, err := os.OpenFile(args[1], os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		fmt.Fprintf(os.Stderr, "go-client: cannot write the records file: %v\n", err)
		return 1
	}
	defer records.Close()
	if err := driver.NewRun(script, records, sdkVersion(), started).Play(); err != nil {
		fmt.Fprintf(os.Stderr, "go-client: driver defect: %v\n", err)
		return 1
	}
	return 0
}
