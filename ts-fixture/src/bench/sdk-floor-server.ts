/**
 * Benchmark 7's floor for the TypeScript column (`node dist/bench/sdk-floor-server.js`): the least work any guarded
 * server on this SDK does per commit over Streamable HTTP. The same SDK entry (createMcpHandler behind
 * toNodeHandler, one McpServer per request, as the SDK asks), the same tool name and compiled input schema, the SDK's
 * own requestState codec minting on round one and verifying on the continuation, and nothing of the fixture's own:
 * no bearer check, no Host/Origin check, no body gate, no arguments digest, no bridge and so no commit. Whatever the
 * guarded fixture does costs at least this much CPU, so the commits per second this server's CPU allows bound the
 * fixture's from above. Never a server to deploy: it has no authentication and writes nothing.
 *
 * Usage: `--http PORT`. Environment: WIRE_STATE_KEY_HEX (at least 32 bytes). Prints `serving URL` on stderr.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type NodeIncomingMessageLike, toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, createRequestStateCodec, inputRequired, McpServer } from '@modelcontextprotocol/server';
import { GUARDED_TOOL } from '../continuation-payload.js';
import { CREATE_INPUT } from '../guarded-tools.js';

const ENDPOINT = '/mcp';
const PRINCIPAL = 'floor';

function stateKey(): Uint8Array {
  const hex = process.env['WIRE_STATE_KEY_HEX'] ?? '';
  if (!/^([0-9a-f]{2}){32,}$/.test(hex)) {
    process.stderr.write('sdk-floor-server: WIRE_STATE_KEY_HEX must be at least 32 bytes of lowercase hex\n');
    process.exit(2);
  }
  return Uint8Array.from(Buffer.from(hex, 'hex'));
}

const codec = createRequestStateCodec<unknown>({ key: stateKey(), ttlSeconds: 600, bind: () => PRINCIPAL });

const mcp = createMcpHandler(
  () => {
    const server = new McpServer(
      { name: 'continuation-replay-sdk-floor', version: '0.1.0' },
      { capabilities: { tools: {} }, requestState: { verify: (state, ctx) => codec.verify(state, ctx) } },
    );
    server.registerTool(GUARDED_TOOL, { description: 'floor', inputSchema: CREATE_INPUT }, async (args, ctx) => {
      if (ctx.mcpReq.inputResponses === undefined) {
        return inputRequired({
          inputRequests: {
            body: inputRequired.elicit({
              message: `Body for ${args.title}?`,
              requestedSchema: { type: 'object', properties: { body: { type: 'string' } }, required: ['body'] },
            }),
          },
          requestState: await codec.mint({ operation_id: args.operation_id }, ctx),
        });
      }
      return { content: [{ type: 'text', text: 'not committed' }], structuredContent: { replayed: false } };
    });
    return server;
  },
  { legacy: 'reject', onerror: (error) => process.stderr.write(`sdk-floor-server: ${error.message}\n`) },
);
const node = toNodeHandler(mcp, { onerror: (error) => process.stderr.write(`sdk-floor-server: ${error.message}\n`) });

const http = createServer((req, res) => {
  node(req as NodeIncomingMessageLike, res).catch((error: unknown) => {
    process.stderr.write(`sdk-floor-server: ${error instanceof Error ? error.message : String(error)}\n`);
    if (!res.headersSent) res.writeHead(500).end();
    else res.destroy();
  });
});
// `--http PORT`, as the fixture is started; 0 picks a free port.
const [flag, portText] = process.argv.slice(2);
if (flag !== '--http' || portText === undefined || !/^\d{1,5}$/.test(portText) || Number(portText) > 65535) {
  process.stderr.write('usage: sdk-floor-server --http PORT\n');
  process.exit(2);
}
http.listen(Number(portText), '127.0.0.1', () => {
  const { port } = http.address() as AddressInfo;
  process.stderr.write(`serving http://127.0.0.1:${port}${ENDPOINT}\n`);
});
const stop = (): void => {
  http.close();
  http.closeAllConnections();
  void mcp.close().finally(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
