package server

import (
	"context"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The keys of TokenInfo.Extra the fixture's transport code fills in: the request's params as read, and (HTTP only)
// the function that cuts the request's connection.
const (
	ParamsKey = "lab.continuationreplay/params"
	CloseKey  = "lab.continuationreplay/close"
)

// ParamsTransport wraps the SDK's transport: every call it reads carries, in its RequestExtra, the stdio principal
// (from the trusted environment) and the request's params exactly as they arrived. Nothing on the wire changes.
type ParamsTransport struct {
	Inner     mcp.Transport
	Principal string
}

// Connect implements mcp.Transport.
func (t *ParamsTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	conn, err := t.Inner.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &paramsConnection{Connection: conn, principal: t.Principal}, nil
}

type paramsConnection struct {
	mcp.Connection
	principal string
}

func (c *paramsConnection) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if req, ok := msg.(*jsonrpc.Request); ok && err == nil && req.IsCall() {
		req.Extra = &mcp.RequestExtra{TokenInfo: &auth.TokenInfo{UserID: c.principal,
			Extra: map[string]any{ParamsKey: json.RawMessage(append([]byte(nil), req.Params...))}}}
	}
	return msg, err
}
