package main

import "github.com/modelcontextprotocol/go-sdk/mcp"

// conformancePrincipal is every request's principal under the profile without a tokens file.
const conformancePrincipal = "conformance"

type conformanceProfile struct{}

func newConformanceProfile() *conformanceProfile { return &conformanceProfile{} }

func (p *conformanceProfile) capabilities() *mcp.ServerCapabilities {
	return &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}}
}

func (p *conformanceProfile) register(*mcp.Server) {}

func (p *conformanceProfile) refuse([]byte) (string, bool) { return "", false }
