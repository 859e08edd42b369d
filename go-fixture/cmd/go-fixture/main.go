// Command go-fixture is the guarded MCP server on the official Go SDK, speaking protocol 2026-07-28 on stdio,
// whose effects go through one long-lived Java bridge child to the shared SQLite ledger (docs/go-fixture.md).
// stdout is the wire; every log line goes to stderr. Exit 2 for a bad configuration, 70 for drop-after-commit.
package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"lab.continuationreplay/gofixture/internal/bridge"
	"lab.continuationreplay/gofixture/internal/config"
	"lab.continuationreplay/gofixture/internal/frames"
	"lab.continuationreplay/gofixture/internal/repo"
	"lab.continuationreplay/gofixture/internal/requeststate"
	"lab.continuationreplay/gofixture/internal/server"
)

const badConfiguration = 2

func fail(status int, format string, args ...any) {
	fmt.Fprintf(os.Stderr, format+"\n", args...)
	os.Exit(status)
}

// repositoryRoot is the repository this binary was built in (it lives in go-fixture/target/bin), for the
// default bridge command.
func repositoryRoot() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	if resolved, err := filepath.EvalSymlinks(exe); err == nil {
		exe = resolved
	}
	return repo.RootAbove(filepath.Dir(exe))
}

func main() {
	if len(os.Args) > 1 {
		fail(badConfiguration, "usage: go-fixture (stdio only; configuration from the WIRE_* environment)")
	}
	cfg, err := config.Read(os.LookupEnv)
	if err != nil {
		fail(badConfiguration, "%s", err)
	}
	var argv []string
	if os.Getenv(bridge.CommandVariable) != "" {
		argv, err = bridge.Command("", os.Getenv)
	} else {
		root, rootErr := repositoryRoot()
		if rootErr != nil {
			fail(badConfiguration, "cannot find the repository above this binary (%v); set %s", rootErr, bridge.CommandVariable)
		}
		argv, err = bridge.Command(root, os.Getenv)
	}
	if err != nil {
		fail(badConfiguration, "%s", err)
	}
	codec, err := requeststate.NewCodec(cfg.StateKey, cfg.RequestStateTTL, func() int64 { return cfg.ClockEpoch })
	if err != nil {
		fail(badConfiguration, "%s", err)
	}
	client, err := bridge.New(bridge.Options{Argv: argv, Env: bridge.OSEnvironment(), Stderr: os.Stderr})
	if err != nil {
		fail(badConfiguration, "%s", err)
	}
	client.Start()

	s := mcp.NewServer(&mcp.Implementation{Name: server.Name, Version: server.Version}, &mcp.ServerOptions{
		SupportedProtocolVersions: []string{frames.ProtocolVersion},
		Capabilities:              &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}},
		Logger:                    slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})),
	})
	tools := &server.Tools{Config: cfg, Codec: codec, Bridge: client, Log: os.Stderr, Exit: os.Exit}
	tools.Register(s)

	// The strict frame gate reads stdin; the SDK reads only the lines it lets through, and both write whole
	// lines to the same stdout (internal/frames).
	stdout := frames.NewLineWriter(os.Stdout)
	toSDK, fromGate := io.Pipe()
	go func() {
		err := frames.Run(os.Stdin, fromGate, stdout, nil)
		if err != nil {
			fmt.Fprintf(os.Stderr, "%s: reading stdin: %v\n", server.Name, err)
		}
	}()
	transport := &server.ParamsTransport{
		Inner:     &mcp.IOTransport{Reader: toSDK, Writer: stdout, MaxLineLength: frames.MaxLineBytes + 1},
		Principal: cfg.Principal,
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	if err := s.Run(ctx, transport); err != nil && ctx.Err() == nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", server.Name, err)
	}
	client.Close(3 * time.Second)
}
