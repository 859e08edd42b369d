/**
 * Benchmark 7's SDK floor server (dist/bench/sdk-floor-server.js) as a child process: it refuses a bad command line or
 * key before it listens, and over real HTTP it answers round one with input_required and a codec-minted state, and
 * the continuation carrying that state with a result (a forged state is refused by the SDK's codec).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { HttpServerProcess } from './http-server-process.js';

const SERVER = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist', 'bench', 'sdk-floor-server.js');
const KEY = 'ab'.repeat(32);

function refused(args: string[], key: string | undefined): { status: number | null; stderr: string } {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env['WIRE_STATE_KEY_HEX'];
  if (key !== undefined) env['WIRE_STATE_KEY_HEX'] = key;
  const result = spawnSync(process.execPath, [SERVER, ...args], { env, encoding: 'utf8', timeout: 20_000 });
  return { status: result.status, stderr: result.stderr };
}

test('a missing or short key, and a bad command line, end the server with status 2 before it listens', () => {
  for (const [args, key, words] of [
    [['--http', '0'], undefined, 'WIRE_STATE_KEY_HEX'],
    [['--http', '0'], 'ab'.repeat(31), 'WIRE_STATE_KEY_HEX'],
    [[], KEY, 'usage'],
    [['--http', '70000'], KEY, 'usage'],
    [['--port', '0'], KEY, 'usage'],
  ] as const) {
    const run = refused([...args], key);
    assert.equal(run.status, 2, `${args.join(' ')}: ${run.stderr}`);
    assert.match(run.stderr, new RegExp(words));
    assert.doesNotMatch(run.stderr, /serving/);
  }
});

test('round one asks for input with a minted state; the continuation with it gets a result, a forged one is refused', async () => {
  const server = new HttpServerProcess(SERVER, ['--http', '0'], { ...process.env, WIRE_STATE_KEY_HEX: KEY });
  try {
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'test', version: '0' },
      'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
    };
    const args = { operation_id: 'op-1', title: 't', mode: 'atomic' };
    const call = async (extra: Record<string, unknown>): Promise<Record<string, any>> => {
      const response = await server.send('tools/call', { name: 'create_guarded_issue', arguments: args, ...extra }, undefined, meta);
      return (await response.json()) as Record<string, any>;
    };
    const first = await call({});
    assert.equal(typeof first['result']?.requestState, 'string', JSON.stringify(first));
    const answers = { body: { action: 'accept', content: { body: 'alpha' } } };
    const second = await call({ inputResponses: answers, requestState: first['result'].requestState });
    assert.equal(second['result']?.isError, undefined, JSON.stringify(second));
    assert.deepEqual(second['result']?.structuredContent, { replayed: false });
    const forged = await call({ inputResponses: answers, requestState: 'v1.e30.' + 'A'.repeat(43) });
    assert.equal(forged['error']?.code, -32602, JSON.stringify(forged));
  } finally {
    assert.equal(await server.stop(), 0);
  }
});
