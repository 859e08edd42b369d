//go:build !gosdk_before_v1_8

package main

import (
	"io"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"lab.continuationreplay/gofixture/internal/frames"
)

// The two SDK options the fixture sets that go-sdk has only since v1.8.0; sdk_options_before_v1_8.go serves the
// older MRTR release (v1.7.0) that `lab versions` builds with the tag gosdk_before_v1_8.

// restrictProtocolVersions makes the SDK negotiate 2026-07-28 only, the one version the lab speaks.
func restrictProtocolVersions(options *mcp.ServerOptions) {
	options.SupportedProtocolVersions = []string{frames.ProtocolVersion}
}

// stdioTransport lets the SDK read every line the strict frame gate lets through (the gate bounds them first).
func stdioTransport(reader io.ReadCloser, writer io.WriteCloser) *mcp.IOTransport {
	return &mcp.IOTransport{Reader: reader, Writer: writer, MaxLineLength: frames.MaxLineBytes + 1}
}
