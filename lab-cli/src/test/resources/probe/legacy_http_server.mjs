// A Streamable HTTP server on the official TypeScript SDK (the ts-fixture's own install) that speaks the versions
// before 2026-07-28 only, with sessions, for lab probe's tests of those versions and of redelivery (r1).
//
// Environment: SDK_MODULES, the folder holding @modelcontextprotocol/{server,node}; PORT; EFFECTS_FILE, where each
// committed order is one line; VERSIONS, the versions offered (comma-separated); EVENT_STORE: none, memory (keeps
// every event, so a call's response is redelivered on GET with Last-Event-ID), or bounded (keeps the newest event
// only, so the priming event is gone by the time a client resumes from it); ANSWER_VERSION: answer every POST with an
// initialize result of that version and nothing else.
// Tools: place_order {item, order_id} commits one order per order_id and answers a retry with the stored answer;
// confirm_order asks the client by elicitation first, on the call's open stream.
import { appendFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { randomUUID } from 'node:crypto';

const modules = process.env.SDK_MODULES;
const { McpServer, fromJsonSchema } = await import(`${modules}/@modelcontextprotocol/server/dist/index.mjs`);
const { NodeStreamableHTTPServerTransport } = await import(`${modules}/@modelcontextprotocol/node/dist/index.mjs`);

const versions = (process.env.VERSIONS ?? '2025-11-25,2025-06-18,2025-03-26,2024-11-05').split(',');
const effects = process.env.EFFECTS_FILE;
const orders = new Map();

function eventStore(kind) {
  if (kind === 'none') return undefined;
  const events = [];
  let next = 0;
  return {
    async storeEvent(streamId, message) {
      const id = `${streamId}_${++next}`;
      events.push({ id, streamId, message });
      if (kind === 'bounded') events.splice(0, events.length - 1);
      return id;
    },
    async replayEventsAfter(lastEventId, { send }) {
      const at = events.findIndex((e) => e.id === lastEventId);
      if (at < 0) throw new Error(`event ${lastEventId} is no longer kept`);
      const { streamId } = events[at];
      for (const e of events.slice(at + 1)) {
        if (e.streamId === streamId && e.message && Object.keys(e.message).length > 0) await send(e.id, e.message);
      }
      return streamId;
    },
  };
}
const store = eventStore(process.env.EVENT_STORE ?? 'none');

const ORDER = fromJsonSchema({
  type: 'object',
  properties: { item: { type: 'string' }, order_id: { type: 'string' } },
  required: ['item', 'order_id'],
});

function commit({ item, order_id }) {
  if (!orders.has(order_id)) {
    orders.set(order_id, { order_id, item, number: orders.size + 1 });
    appendFileSync(effects, `${order_id}\n`);
  }
  const order = orders.get(order_id);
  return { content: [{ type: 'text', text: `order ${order.number}: ${order.item}` }], structuredContent: order };
}

function newServer() {
  const server = new McpServer(
    { name: 'legacy-http-test-server', version: '0.1.0' },
    { capabilities: { tools: {} }, supportedProtocolVersions: versions },
  );
  server.registerTool('place_order', { description: 'Places one order per order_id.', inputSchema: ORDER }, async (args) => commit(args));
  server.registerTool('confirm_order', { description: 'Asks for a note, then places the order.', inputSchema: ORDER },
    async (args, ctx) => {
      // relatedRequestId puts the request on this call's own stream; without it the SDK sends it on the GET stream
      const answer = await ctx.mcpReq.elicitInput({
        message: 'A note for the order?',
        requestedSchema: { type: 'object', properties: { note: { type: 'string' } }, required: ['note'] },
      }, { relatedRequestId: ctx.mcpReq.id });
      if (answer.action !== 'accept') return { content: [{ type: 'text', text: 'declined' }], isError: true };
      return commit(args);
    });
  return server;
}

const sessions = new Map();
const http = createServer(async (req, res) => {
  if (process.env.ANSWER_VERSION) {
    // a server from another era: whatever is asked, initialize is answered with this version, and nothing else
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ jsonrpc: '2.0', id: 1, result: { protocolVersion: process.env.ANSWER_VERSION, capabilities: {},
      serverInfo: { name: 'future', version: '0.1.0' } } }));
    return;
  }
  try {
    const id = req.headers['mcp-session-id'];
    let transport = id ? sessions.get(id) : undefined;
    if (id && !transport) {
      res.writeHead(404, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }));
      return;
    }
    if (!transport) {
      transport = new NodeStreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        eventStore: store,
        onsessioninitialized: (sid) => sessions.set(sid, transport),
      });
      transport.onclose = () => transport.sessionId && sessions.delete(transport.sessionId);
      await newServer().connect(transport);
    }
    await transport.handleRequest(req, res);
  } catch (error) {
    process.stderr.write(`request failed: ${error?.stack ?? error}\n`);
    if (!res.headersSent) res.writeHead(500).end();
  }
});
http.listen(Number(process.env.PORT), '127.0.0.1', () => process.stderr.write(`listening on ${process.env.PORT}\n`));
