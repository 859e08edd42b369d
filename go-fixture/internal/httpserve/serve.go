package httpserve

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"lab.continuationreplay/gofixture/internal/bridge"
	"lab.continuationreplay/gofixture/internal/config"
	"lab.continuationreplay/gofixture/internal/frames"
	"lab.continuationreplay/gofixture/internal/server"
)

// The endpoint and the limits, the TypeScript fixture's.
const (
	Endpoint     = "/mcp"
	MaxBodyBytes = 4 << 20
	MaxInFlight  = 64
	// MaxHeaderBytes bounds a request's head, as Node's default bounds the TypeScript fixture's (16 KiB) and
	// Tomcat's the Java server's: net/http's default (1 MiB, plus 4 KiB of its own slack) let a 1 MiB header and
	// 2,000 headers through. Over it, net/http answers 431 and closes the connection before any handler runs.
	MaxHeaderBytes = 16 << 10
	loopback       = "127.0.0.1"
	// StopGrace is how long SIGTERM waits for requests in progress before it cuts their connections.
	StopGrace = 5 * time.Second
)

// Options configure one HTTP server.
type Options struct {
	ReadTimeout time.Duration
	// Tokens authenticate requests; nil only under the conformance profile, where every request is FixedPrincipal.
	Tokens         *BearerTokens
	FixedPrincipal string
	// Server is the SDK server every request is served by (stateless: one short session per request).
	Server *mcp.Server
	Log    io.Writer
	Logger *slog.Logger
	// EventStreams makes every reply an event stream (the conformance profile): with JSON replies the stateless
	// handler drops a request's notifications (progress, log), having no standalone stream to send them to.
	EventStreams bool
}

// Running is a listening server.
type Running struct {
	URL     string
	http    *http.Server
	done    chan error
	handler *handler
}

// InFlight is how many requests hold a slot now (a test waits on it: a held request may reach the handler late).
func (r *Running) InFlight() int64 {
	return r.handler.inFlight.Load()
}

type connKey struct{}
type tokenInfoKey struct{}

// Serve listens on 127.0.0.1:port (0: a free port) and serves in the background.
func Serve(port int, opts Options) (*Running, error) {
	if opts.Tokens == nil && opts.FixedPrincipal == "" {
		// Serving without bearer tokens is the conformance profile's exception, never a default.
		return nil, errors.New("HTTP mode needs bearer tokens")
	}
	listener, err := net.Listen("tcp", net.JoinHostPort(loopback, fmt.Sprint(port)))
	if err != nil {
		return nil, err
	}
	sdk := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return opts.Server }, &mcp.StreamableHTTPOptions{
		// 2026-07-28 requests are served only by a stateless handler; every reply is one JSON body (the guarded
		// tools emit nothing before their result), except under the conformance profile (EventStreams).
		Stateless:           true,
		JSONResponse:        !opts.EventStreams,
		MaxRequestBodyBytes: MaxBodyBytes,
		Logger:              opts.Logger,
	})
	// The SDK's own bearer middleware is the one way v1.8.0 offers to put a TokenInfo on a request, which the SDK
	// then hands to the tool handler in RequestExtra. The token was already checked (and 401 answered, with the
	// challenges RFC 6750 asks for, which this middleware does not send): its verifier returns the TokenInfo the
	// fixture prepared for this request.
	withPrincipal := auth.RequireBearerToken(func(ctx context.Context, _ string, _ *http.Request) (*auth.TokenInfo, error) {
		info, ok := ctx.Value(tokenInfoKey{}).(*auth.TokenInfo)
		if !ok {
			return nil, auth.ErrInvalidToken
		}
		return info, nil
	}, &auth.RequireBearerTokenOptions{AllowMissingExpiration: true})(sdk)
	h := &handler{opts: opts, sdk: withPrincipal}
	r := &Running{
		URL: fmt.Sprintf("http://%s%s", listener.Addr().String(), Endpoint),
		http: &http.Server{
			Handler: h,
			// A client that has not sent its whole request within the read timeout is disconnected.
			ReadHeaderTimeout: opts.ReadTimeout,
			ReadTimeout:       opts.ReadTimeout,
			MaxHeaderBytes:    MaxHeaderBytes,
			IdleTimeout:       opts.ReadTimeout,
			ConnContext: func(ctx context.Context, c net.Conn) context.Context {
				return context.WithValue(ctx, connKey{}, c)
			},
			// net/http's own complaints (a client gone mid-reply) are not the fixture's log.
			ErrorLog: nil,
		},
		done:    make(chan error, 1),
		handler: h,
	}
	go func() { r.done <- r.http.Serve(listener) }()
	return r, nil
}

// Stop closes the listener, lets requests in progress finish for up to grace, then cuts the rest.
func (r *Running) Stop(grace time.Duration) {
	ctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	if err := r.http.Shutdown(ctx); err != nil {
		r.http.Close()
	}
	<-r.done
}

type handler struct {
	opts     Options
	sdk      http.Handler
	inFlight atomic.Int64
}

func plain(w http.ResponseWriter, status int, message string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(status)
	io.WriteString(w, message+"\n")
}

// earlyDrainLimit: how much of an unread body a refusal made from the head alone reads first.
const earlyDrainLimit = 64 << 10

// refuseFromHead answers a refusal judged from the head alone, after reading (and dropping) a small body, so that
// the socket is never closed with the client's bytes still unread. GoFixtureHttpIT once read "Connection reset"
// instead of the 403 on a loaded machine, with the body sent right behind the head; a deterministic reproduction has
// not been found (a body sent 800 ms late still gets its answer without this), so this narrows a race rather than
// fixing a demonstrated cause. A larger body is left unread; the server's read timeout bounds the wait either way.
func refuseFromHead(w http.ResponseWriter, r *http.Request, status int, message string) {
	if r.ContentLength >= 0 && r.ContentLength <= earlyDrainLimit {
		io.Copy(io.Discard, io.LimitReader(r.Body, earlyDrainLimit))
	}
	plain(w, status, message)
}

func jsonLine(w http.ResponseWriter, status int, line string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	io.WriteString(w, line)
}

// IsLoopbackHost: a Host (or an Origin's host), with or without a port, naming this machine's loopback.
func IsLoopbackHost(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	} else if strings.HasPrefix(host, "[") && strings.HasSuffix(host, "]") {
		host = host[1 : len(host)-1]
	}
	switch strings.ToLower(host) {
	case "localhost", "127.0.0.1", "::1":
		return true
	}
	return false
}

func originAllowed(r *http.Request) bool {
	values := r.Header.Values("Origin")
	if len(values) == 0 {
		return true
	}
	if len(values) > 1 {
		return false
	}
	u, err := url.Parse(values[0])
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && IsLoopbackHost(u.Host)
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	// DNS rebinding first: a page on a foreign origin must learn nothing, not even whether a token is valid.
	if !IsLoopbackHost(r.Host) || !originAllowed(r) {
		refuseFromHead(w, r, http.StatusForbidden, "forbidden: Host and Origin must be this loopback server")
		return
	}
	if r.URL.Path != Endpoint {
		refuseFromHead(w, r, http.StatusNotFound, "not found")
		return
	}
	if h.inFlight.Add(1) > MaxInFlight {
		h.inFlight.Add(-1)
		w.Header().Set("Retry-After", "1")
		refuseFromHead(w, r, http.StatusServiceUnavailable, "too many requests in flight")
		return
	}
	defer h.inFlight.Add(-1)
	principal := h.opts.FixedPrincipal
	if h.opts.Tokens != nil {
		authorization, present := r.Header["Authorization"]
		found := false
		if len(authorization) == 1 {
			principal, found = h.opts.Tokens.PrincipalFor(authorization[0])
		}
		if !found {
			challenge := `Bearer error="invalid_token"`
			if !present {
				challenge = "Bearer"
			}
			w.Header().Set("WWW-Authenticate", challenge)
			refuseFromHead(w, r, http.StatusUnauthorized, "unauthorized")
			return
		}
	}
	info := &auth.TokenInfo{UserID: principal, Extra: map[string]any{}}
	if r.Method == http.MethodPost {
		body, problem := readBody(r)
		switch problem {
		case bodyTooLarge:
			plain(w, http.StatusRequestEntityTooLarge, "request body over 4 MiB")
			return
		case bodyTimedOut:
			// Answered, not just dropped: a handler that returns without writing makes net/http send 200 with an
			// empty body, a success for a request that never arrived.
			w.Header().Set("Connection", "close")
			plain(w, http.StatusRequestTimeout, "request body not received within the read timeout")
			return
		case bodyBroken:
			w.Header().Set("Connection", "close")
			plain(w, http.StatusBadRequest, "request body could not be read")
			return
		}
		// The Java server's rules, before the SDK sees the body: what is refused here never reaches a handler.
		if line := frames.JudgeHTTPBody(body); line != "" {
			jsonLine(w, http.StatusBadRequest, line)
			return
		}
		// The SDK reads the first of repeated headers and runs the request; the other servers refuse a repeated
		// routing header, as they refuse a missing or garbled one.
		for _, name := range []string{"Mcp-Method", "Mcp-Name", "Mcp-Protocol-Version"} {
			if len(r.Header.Values(name)) > 1 {
				jsonLine(w, http.StatusBadRequest, frames.ErrorLine(frames.HTTPRequestID(body), -32020, "repeated "+name+" header", ""))
				return
			}
		}
		body = frames.AsJudged(body)
		var message struct {
			Params json.RawMessage `json:"params"`
		}
		_ = json.Unmarshal(body, &message) // the gate passed it: a JSON object
		info.Extra[server.ParamsKey] = message.Params
		r.Body = io.NopCloser(bytes.NewReader(body))
		r.ContentLength = int64(len(body))
	}
	if conn, ok := r.Context().Value(connKey{}).(net.Conn); ok {
		var once sync.Once
		info.Extra[server.CloseKey] = func() { once.Do(func() { conn.Close() }) }
	}
	// The token stays here: the SDK sees a stand-in credential and the principal decided above.
	r = r.WithContext(context.WithValue(r.Context(), tokenInfoKey{}, info))
	r.Header.Set("Authorization", "Bearer checked-by-the-fixture")
	h.sdk.ServeHTTP(w, r)
}

type bodyProblem int

const (
	bodyRead bodyProblem = iota
	bodyTooLarge
	// bodyTimedOut: the read timeout ended a body shorter than its Content-Length, or a chunked body without its
	// last chunk.
	bodyTimedOut
	// bodyBroken: a bad chunk size or framing, or the client closed its side mid-body.
	bodyBroken
)

// readBody is the whole body, or why there is none. A declared length over the limit is refused from the headers;
// a longer chunked body is read and dropped, so a client still sending it gets to read the 413 (the read timeout
// bounds how long that takes).
func readBody(r *http.Request) ([]byte, bodyProblem) {
	if r.ContentLength > MaxBodyBytes {
		return nil, bodyTooLarge
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, MaxBodyBytes+1))
	if err != nil {
		var timeout net.Error
		if errors.As(err, &timeout) && timeout.Timeout() {
			return nil, bodyTimedOut
		}
		return nil, bodyBroken
	}
	if len(body) > MaxBodyBytes {
		io.Copy(io.Discard, r.Body)
		return nil, bodyTooLarge
	}
	if body == nil {
		body = []byte{}
	}
	return body, bodyRead
}

// PrincipalBridges starts one bridge child per principal, on that principal's first call: the bridge takes its
// principal from its own environment (WIRE_PRINCIPAL), and its protocol has no principal field.
type PrincipalBridges struct {
	argv    []string
	lookup  func(string) (string, bool)
	stderr  io.Writer
	mu      sync.Mutex
	clients map[string]*bridge.Client
	closed  bool
}

// NewPrincipalBridges: argv is the bridge command, lookup this process's environment.
func NewPrincipalBridges(argv []string, lookup func(string) (string, bool), stderr io.Writer) *PrincipalBridges {
	return &PrincipalBridges{argv: argv, lookup: lookup, stderr: stderr, clients: map[string]*bridge.Client{}}
}

// For is the principal's bridge.
func (p *PrincipalBridges) For(principal string) server.Caller {
	p.mu.Lock()
	defer p.mu.Unlock()
	if c, ok := p.clients[principal]; ok {
		return c
	}
	env := bridge.Environment(func(name string) (string, bool) {
		switch name {
		case config.Principal:
			return principal, true
		case config.Fault:
			// close-after-commit is the fixture's own fault; the bridge knows only the stdio ones.
			if v, ok := p.lookup(name); ok && v != config.CloseAfterCommit {
				return v, true
			}
			return "", false
		}
		return p.lookup(name)
	})
	c, err := bridge.New(bridge.Options{Argv: p.argv, Env: env, Stderr: p.stderr})
	if err != nil {
		return failing{err}
	}
	if p.closed {
		c.Close(0)
	} else {
		c.Start()
	}
	p.clients[principal] = c
	return c
}

// Close ends every bridge child and waits for them.
func (p *PrincipalBridges) Close(grace time.Duration) {
	p.mu.Lock()
	p.closed = true
	clients := make([]*bridge.Client, 0, len(p.clients))
	for _, c := range p.clients {
		clients = append(clients, c)
	}
	p.mu.Unlock()
	var wg sync.WaitGroup
	for _, c := range clients {
		wg.Add(1)
		go func() { defer wg.Done(); c.Close(grace) }()
	}
	wg.Wait()
}

type failing struct{ err error }

func (f failing) Call(any) (bridge.Answer, error) { return bridge.Answer{}, f.err }
