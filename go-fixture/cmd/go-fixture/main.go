// Command go-fixture is the guarded MCP server on the official Go SDK, speaking protocol 2026-07-28 on stdio,
// whose effects go through one long-lived Java bridge child to the shared SQLite ledger (docs/go-fixture.md).
// stdout is the wire; every log line goes to stderr. With --http PORT it serves Streamable HTTP instead. Exit 2 for a bad configuration, 70 for drop-after-commit.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"lab.continuationreplay/gofixture/internal/bridge"
	"lab.continuationreplay/gofixture/internal/config"
	fixtures "lab.continuationreplay/gofixture/internal/conformance"
	"lab.continuationreplay/gofixture/internal/frames"
	"lab.continuationreplay/gofixture/internal/httpserve"
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

// usage is the one line a bad argument list gets.
const usage = "usage: go-fixture [--http PORT [--conformance]] [--unguarded] (configuration from the WIRE_* environment)"

// launch is what the command line asks for.
type launch struct {
	port int
	// http: Streamable HTTP on 127.0.0.1:port instead of stdio; conformance adds the suite's fixtures (HTTP only);
	// unguarded serves the control's tool instead of the guarded ones (either transport, never with conformance).
	http, conformance, unguarded bool
}

// arguments: none (stdio), or --http PORT with an optional --conformance, and --unguarded, in any order.
func arguments(args []string) (launch, error) {
	var l launch
	for i := 0; i < len(args); i++ {
		switch args[i] {
		case "--http":
			if l.http || i+1 >= len(args) {
				return launch{}, errors.New(usage)
			}
			i++
			p, convErr := strconv.Atoi(args[i])
			if convErr != nil || p < 0 || p > 65535 || strconv.Itoa(p) != args[i] {
				return launch{}, fmt.Errorf("--http %s is not a port (0 to 65535)", args[i])
			}
			l.port, l.http = p, true
		case "--conformance":
			if l.conformance {
				return launch{}, errors.New(usage)
			}
			l.conformance = true
		case "--unguarded":
			if l.unguarded {
				return launch{}, errors.New(usage)
			}
			l.unguarded = true
		default:
			return launch{}, errors.New(usage)
		}
	}
	if l.conformance && !l.http {
		return launch{}, errors.New("--conformance needs --http PORT")
	}
	if l.conformance && l.unguarded {
		return launch{}, errors.New("--unguarded serves the control, which has no conformance fixtures")
	}
	return l, nil
}

// register adds the guarded tools, or the control's one tool.
func register(tools *server.Tools, s *mcp.Server, unguarded bool) {
	register := tools.Register
	if unguarded {
		register = tools.RegisterUnguarded
	}
	if err := register(s); err != nil {
		fail(badConfiguration, "%s", err)
	}
}

func bridgeArgv() []string {
	var argv []string
	var err error
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
	return argv
}

// newCodec is the guarded tools' requestState codec, on the injected clock.
func newCodec(cfg config.Config) *requeststate.Codec {
	codec, err := requeststate.NewCodec(cfg.StateKey, cfg.RequestStateTTL, func() int64 { return cfg.ClockEpoch })
	if err != nil {
		fail(badConfiguration, "%s", err)
	}
	return codec
}

// sdkLogger is the SDK's log, on stderr: warnings and errors only.
var sdkLogger = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))

func newServer(capabilities *mcp.ServerCapabilities, complete func(context.Context, *mcp.CompleteRequest) (*mcp.CompleteResult, error)) *mcp.Server {
	options := &mcp.ServerOptions{Capabilities: capabilities, CompletionHandler: complete, Logger: sdkLogger}
	restrictProtocolVersions(options)
	return mcp.NewServer(&mcp.Implementation{Name: server.Name, Version: server.Version}, options)
}

func main() {
	l, err := arguments(os.Args[1:])
	if err != nil {
		fail(badConfiguration, "%s", err)
	}
	if l.http {
		serveHTTP(l)
		return
	}
	cfg, err := config.Read(os.LookupEnv)
	if err != nil {
		fail(badConfiguration, "%s", err)
	}
	argv := bridgeArgv()
	codec := newCodec(cfg)
	client, err := bridge.New(bridge.Options{Argv: argv, Env: bridge.OSEnvironment(), Stderr: os.Stderr})
	if err != nil {
		fail(badConfiguration, "%s", err)
	}
	s := newServer(&mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}}, nil)
	tools := &server.Tools{Config: cfg, Codec: codec, Bridges: func(string) server.Caller { return client }, Log: os.Stderr, Exit: os.Exit}
	register(tools, s, l.unguarded)
	client.Start()

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
		Inner:     stdioTransport(toSDK, stdout),
		Principal: cfg.Principal,
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	if err := s.Run(ctx, transport); err != nil && ctx.Err() == nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", server.Name, err)
	}
	client.Close(3 * time.Second)
}

// serveHTTP is --http PORT: the guarded tools over Streamable HTTP on 127.0.0.1 (internal/httpserve); stdout unused.
func serveHTTP(l launch) {
	port, conformance := l.port, l.conformance
	cfg, httpCfg, err := config.ReadHTTP(os.LookupEnv, conformance)
	if err != nil {
		fail(badConfiguration, "%s", err)
	}
	var tokens *httpserve.BearerTokens
	if httpCfg.TokensFile != "" {
		if tokens, err = httpserve.ReadBearerTokens(httpCfg.TokensFile); err != nil {
			fail(badConfiguration, "%s", err)
		}
	}
	argv := bridgeArgv()
	codec := newCodec(cfg)
	bridges := httpserve.NewPrincipalBridges(argv, os.LookupEnv, os.Stderr)
	capabilities := &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}}
	opts := httpserve.Options{
		ReadTimeout: time.Duration(httpCfg.ReadTimeoutMs) * time.Millisecond,
		Tokens:      tokens,
		Log:         os.Stderr,
		Logger:      sdkLogger,
	}
	var profile *fixtures.Profile
	var complete func(context.Context, *mcp.CompleteRequest) (*mcp.CompleteResult, error)
	if conformance {
		ttl, err := conformanceStateTTL(os.LookupEnv)
		if err != nil {
			fail(badConfiguration, "%s", err)
		}
		// The fixtures' states live on the real clock; the guarded tools keep the injected one.
		profile = &fixtures.Profile{States: fixtures.NewStates(cfg.StateKey, ttl, func() int64 { return time.Now().Unix() }), Log: os.Stderr}
		capabilities, complete = fixtures.Capabilities(), fixtures.Complete
		opts.EventStreams = true
		if tokens == nil {
			opts.FixedPrincipal = fixtures.Principal
			fmt.Fprintf(os.Stderr, "%s: conformance profile without %s: every request is principal %q, loopback only\n",
				server.Name, config.BearerTokensFile, fixtures.Principal)
		}
	}
	s := newServer(capabilities, complete)
	tools := &server.Tools{Config: cfg, Codec: codec, Bridges: bridges.For, Log: os.Stderr, Exit: os.Exit}
	register(tools, s, l.unguarded)
	if profile != nil {
		profile.Register(s)
	}
	opts.Server = s
	running, err := httpserve.Serve(port, opts)
	if err != nil {
		bridges.Close(3 * time.Second)
		fail(badConfiguration, "%s: cannot listen on 127.0.0.1:%d: %v", server.Name, port, err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	fmt.Fprintf(os.Stderr, "serving %s\n", running.URL)
	<-ctx.Done()
	running.Stop(httpserve.StopGrace)
	bridges.Close(3 * time.Second)
}
