// Command fingerprint-cli: JSON Lines of LogicalRequests on stdin, one digest per line on stdout, the contract of
// ./lab fingerprint and ts-fixture's fingerprint-cli (docs/fingerprint.md, "The CLIs"). Key from
// CONTINUATION_REPLAY_FINGERPRINT_KEY_HEX. Exit 0, or 2 for a bad key or a bad line; --keep-going reports every
// bad line in place instead of stopping at the first.
package main

import (
	"bufio"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"regexp"

	"lab.continuationreplay/gofixture/internal/fingerprint"
)

const keyVariable = "CONTINUATION_REPLAY_FINGERPRINT_KEY_HEX"

var evenHex = regexp.MustCompile(`^(?:[0-9a-fA-F]{2})+$`)

func key() (fingerprint.Key, string) {
	text := os.Getenv(keyVariable)
	switch {
	case text == "":
		return fingerprint.Key{}, keyVariable + " is not set"
	case !evenHex.MatchString(text):
		return fingerprint.Key{}, keyVariable + " must be an even-length hexadecimal string"
	case len(text)/2 < fingerprint.MinKeyBytes:
		return fingerprint.Key{}, fmt.Sprintf("%s must contain at least %d bytes", keyVariable, fingerprint.MinKeyBytes)
	}
	b, _ := hex.DecodeString(text)
	k, _ := fingerprint.NewKey(b)
	return k, ""
}

func run(args []string, in io.Reader, out, errOut io.Writer) int {
	keepGoing := false
	for _, a := range args {
		if a != "--keep-going" {
			fmt.Fprintf(errOut, "usage: fingerprint-cli [--keep-going] (unknown argument %s)\n", a)
			return 2
		}
		keepGoing = true
	}
	k, problem := key()
	if problem != "" {
		fmt.Fprintln(errOut, problem)
		return 2
	}
	w := bufio.NewWriter(out)
	defer w.Flush()
	r := bufio.NewReaderSize(in, 1<<20)
	failed := false
	for n := 1; ; n++ {
		line, err := r.ReadBytes('\n')
		if len(line) == 0 && err != nil {
			break
		}
		if line[len(line)-1] == '\n' {
			line = line[:len(line)-1]
		}
		if !fingerprint.IsBlankLine(line) {
			outcome := fingerprint.FingerprintLine(k, line)
			if outcome.Error == "" || keepGoing {
				fmt.Fprintln(w, outcome.Output)
			}
			if outcome.Error != "" {
				failed = true
				w.Flush()
				fmt.Fprintf(errOut, "line %d: %s\n", n, outcome.Error)
				if !keepGoing {
					return 2
				}
			}
		}
		if err != nil {
			break
		}
	}
	if failed {
		return 2
	}
	return 0
}

func main() { os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }
