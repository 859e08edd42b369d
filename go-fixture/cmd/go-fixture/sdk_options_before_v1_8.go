//go:build gosdk_before_v1_8

package main

import (
	"io"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// go-sdk v1.7.0, the first release with MRTR, has neither option that sdk_options.go sets, so `lab versions` builds
// its row with the tag gosdk_before_v1_8 and the row measures the SDK as it was.

// restrictProtocolVersions does nothing: v1.7.0 offers its whole list of versions, 2026-07-28 first.
func restrictProtocolVersions(*mcp.ServerOptions) {}

// stdioTransport needs no line bound: v1.7.0 decodes its input as a JSON stream without one.
func stdioTransport(reader io.ReadCloser, writer io.WriteCloser) *mcp.IOTransport {
	return &mcp.IOTransport{Reader: reader, Writer: writer}
}
