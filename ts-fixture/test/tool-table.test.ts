/**
 * The fixture's tools come from vectors/rules/tools.json, whole, and from nothing else: the build's copies are the
 * table, tools/list gives the table's tools member for member, and a changed table changes what is listed.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { InMemoryTransport, type JSONRPCMessage, McpServer } from '@modelcontextprotocol/server';
import { compileGuardedTools, type GuardedToolsContext, registerGuardedTools } from '../src/guarded-tools.js';
import { toolDeclarations } from '../src/tool-table.js';
import { loadRuleTable } from './rule-table.js';

const TABLE = loadRuleTable('tools.json');
const HERE = dirname(fileURLToPath(import.meta.url));
const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'test', version: '0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

function table(change: (root: Record<string, any>) => void = () => {}): Record<string, any> {
  const root = structuredClone(TABLE.root) as Record<string, any>;
  change(root);
  return root;
}

/** tools/list of an SDK server with the guarded tools registered from `tools` (no call reaches a handler). */
async function listed(tools = compileGuardedTools(TABLE.root)): Promise<unknown> {
  const server = new McpServer({ name: 'tool-table', version: '0' }, { capabilities: { tools: {} } });
  registerGuardedTools(server, {} as GuardedToolsContext, tools);
  const [client, side] = InMemoryTransport.createLinkedPair();
  const reply = new Promise<JSONRPCMessage>((done) => {
    client.onmessage = done;
  });
  await server.connect(side);
  await client.start();
  await client.send({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: META } });
  const message = (await reply) as { result?: { tools?: unknown } };
  await server.close();
  // as the wire carries it: members the SDK leaves undefined are not written
  return JSON.parse(JSON.stringify(message.result?.tools));
}

describe('the tool table', () => {
  test('the build copied the table beside the compiled modules, byte for byte', () => {
    const original = readFileSync(TABLE.file, 'utf8');
    for (const copy of [resolve(HERE, '..', '..', 'dist', 'tools.json'), resolve(HERE, '..', 'src', 'tools.json')]) {
      assert.equal(readFileSync(copy, 'utf8'), original, `${copy} is stale: npm run build`);
    }
  });

  test("tools/list gives exactly the table's guarded tools, from the shipped copy too", async () => {
    assert.deepEqual(await listed(), TABLE.root['guarded']);
    const { GUARDED_TOOLS } = await import('../src/guarded-tools.js');
    assert.deepEqual(await listed(GUARDED_TOOLS), TABLE.root['guarded']);
  });

  test('a changed table changes what is listed: description, schemas, order', async () => {
    const changed = table((root) => {
      const [create, status] = root['guarded'];
      create.description = 'changed';
      create.inputSchema.properties.extra = { type: 'string' };
      delete status.outputSchema;
      root['guarded'] = [status, create];
    });
    assert.deepEqual(await listed(compileGuardedTools(changed)), changed['guarded']);
  });

  test('a table that is not the served tools, or holds a member no reader passes on, is refused', () => {
    const refused: Array<[(root: Record<string, any>) => void, RegExp]> = [
      [(root) => (root['guarded'][1].name = 'get_status'), /this server serves/],
      [(root) => root['guarded'].push(structuredClone(root['guarded'][0])), /this server serves/],
      [(root) => root['guarded'].pop(), /this server serves/],
      [(root) => (root['guarded'][0].annotations = { readOnlyHint: false }), /does not pass on: annotations/],
      [(root) => delete root['guarded'][0].description, /non-empty name and description/],
      [(root) => (root['guarded'][0].inputSchema = '{}'), /object inputSchema/],
      [(root) => delete root['guarded'], /no "guarded" array/],
      [(root) => (root['format'] = 'tool-table/2'), /format must be "tool-table\/1"/],
    ];
    for (const [change, message] of refused) assert.throws(() => compileGuardedTools(table(change)), message);
    assert.deepEqual(
      toolDeclarations(TABLE.root, 'unguarded', ['create_issue']).map((tool) => tool.name),
      ['create_issue'],
    );
  });
});
