/**
 * The driver over Streamable HTTP: both guarded servers as real processes on real sockets (`--http 0`), reached
 * through the SDK's own StreamableHTTPClientTransport with the bearer token from the driver's environment; and the
 * HTTP server entries the driver refuses before it sends anything.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { type AddressInfo, type Server, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  ALICE_TOKEN,
  DRIVER,
  type DriverRun,
  type HttpServer,
  UNKNOWN_TOKEN,
  requireBuilt,
  runDriver,
  startHttpServer,
  step,
} from './harness.js';

const TOOL = 'create_guarded_issue';
const ALPHA = { body: { action: 'accept', content: { body: 'alpha' } } };
const TOKEN_ENV = 'LAB_TEST_ALICE_TOKEN';
const WRONG_TOKEN_ENV = 'LAB_TEST_UNKNOWN_TOKEN';
const DRIVER_ENV = { ...process.env, [TOKEN_ENV]: ALICE_TOKEN, [WRONG_TOKEN_ENV]: UNKNOWN_TOKEN };

function args(operationId: string): Record<string, string> {
  return { operation_id: operationId, title: `title of ${operationId}`, mode: 'atomic' };
}

function script(servers: Record<string, unknown>, steps: unknown[]): Record<string, unknown> {
  return { format: 'client-script/1', servers, request_timeout_ms: 5000, version_mode: 'pin', steps };
}

function web(server: HttpServer, tokenEnv = TOKEN_ENV): Record<string, string> {
  return { url: server.url, bearer_token_env: tokenEnv };
}

/** Every run: exit 0, stdout unused, and no token anywhere (script, records, stderr). */
function assertRan(dir: string, name: string, run: DriverRun, count: number): void {
  assert.equal(run.status, 0, run.stderr);
  assert.equal(run.stdout, '', 'the driver wrote to stdout');
  assert.equal(run.records.length, count, run.stderr);
  const everything = readFileSync(join(dir, `${name}.script.json`), 'utf8') + JSON.stringify(run.records) + run.stderr;
  for (const token of [ALICE_TOKEN, UNKNOWN_TOKEN]) {
    assert.ok(!everything.includes(token), 'a token reached the script, a record or stderr');
  }
  for (const record of run.records) {
    if (record['op'] !== 'connect') assert.ok(!('transport' in record), 'only a connect record has a transport');
  }
}

for (const kind of ['java', 'typescript'] as const) {
  describe(`over Streamable HTTP against the ${kind} server`, () => {
    let dir: string;
    before(() => {
      requireBuilt(kind);
      dir = mkdtempSync(join(tmpdir(), `ts-client-http-${kind}-`));
    });
    after(() => rmSync(dir, { recursive: true, force: true }));

    test('connect, automatic call with the elicitation answered, status, close; the token only in the environment', async () => {
      const server = await startHttpServer(kind, dir, join(dir, 'auto.sqlite3'));
      try {
        const run = await runDriver(
          dir,
          'auto',
          script({ web: web(server) }, [
            { op: 'connect', connection: 'a', server: 'web' },
            { op: 'call', connection: 'a', tool: TOOL, arguments: args('http-auto'), answer: { body: 'alpha' } },
            { op: 'status', connection: 'a', operation_id: 'http-auto' },
            { op: 'close', connection: 'a' },
          ]),
          { env: DRIVER_ENV },
        );
        assertRan(dir, 'auto', run, 4);

        const connected = step(run, 0);
        assert.equal(connected['outcome'], 'connected', JSON.stringify(connected));
        assert.equal(connected['transport'], 'http');
        assert.equal(
          connected['api'],
          'new Client(..) + new StreamableHTTPClientTransport(url, {authProvider: {token}}), connect(transport)',
        );
        assert.deepEqual(connected['sent'], {
          server: 'web',
          version_mode: 'pin',
          url: server.url,
          bearer_token_env: TOKEN_ENV,
        });

        const automatic = step(run, 1);
        assert.equal(automatic['outcome'], 'result', JSON.stringify(automatic));
        assert.deepEqual(automatic['result']['structuredContent'], {
          operationId: 'http-auto',
          effectId: 1,
          result: 'created 1',
          replayed: false,
          state: 'applied',
        });

        const status = step(run, 2)['result']['structuredContent'];
        assert.equal(status['state'], 'applied');
        assert.deepEqual(status['matchingIds'], [1]);
        assert.equal(status['principal'], 'alice', "the token's principal");

        assert.equal(step(run, 3)['outcome'], 'closed');
        assert.equal(step(run, 3)['api'], 'close()');
        assert.ok(server.alive(), 'closing the client leaves the server to the lab');
      } finally {
        await server.stop();
      }
    });

    test("a wrong token: the SDK's UnauthorizedError is recorded and the driver goes on", async () => {
      const server = await startHttpServer(kind, dir, join(dir, 'wrong.sqlite3'));
      try {
        const run = await runDriver(
          dir,
          'wrong',
          script({ intruder: web(server, WRONG_TOKEN_ENV), web: web(server) }, [
            { op: 'connect', connection: 'x', server: 'intruder' },
            { op: 'call', connection: 'x', tool: TOOL, arguments: args('http-wrong'), answer: { body: 'alpha' } },
            { op: 'connect', connection: 'a', server: 'web' },
            { op: 'status', connection: 'a', operation_id: 'http-wrong' },
            { op: 'close', connection: 'x' },
            { op: 'close', connection: 'a' },
          ]),
          { env: DRIVER_ENV },
        );
        assertRan(dir, 'wrong', run, 6);
        const refused = step(run, 0);
        assert.equal(refused['transport'], 'http');
        assert.equal(refused['outcome'], 'threw');
        // The 401 is not in the error itself: with an authProvider and no onUnauthorized, the SDK throws this.
        assert.deepEqual(refused['threw'], { type: 'UnauthorizedError', code: null, message: 'Unauthorized', data: null, cause: null });
        // The failed connect leaves the client unconnected; the call is the SDK's refusal, nothing is sent.
        assert.deepEqual(step(run, 1)['threw'], { type: 'Error', code: null, message: 'Not connected', data: null, cause: null });
        assert.equal(step(run, 2)['outcome'], 'connected');
        assert.equal(step(run, 3)['result']['structuredContent']['state'], 'unknown', 'the refused call wrote nothing');
        assert.equal(step(run, 4)['outcome'], 'closed');
        assert.equal(step(run, 5)['outcome'], 'closed');
      } finally {
        await server.stop();
      }
    });

    test('a reply lost over HTTP (close-after-commit): what the SDK raised, then the status and a replay', async () => {
      const server = await startHttpServer(kind, dir, join(dir, 'lost.sqlite3'), { WIRE_FAULT: 'close-after-commit' });
      try {
        const continuation = { op: 'call_once', connection: 'a', tool: TOOL, arguments: args('http-lost') };
        const run = await runDriver(
          dir,
          'lost',
          script({ web: web(server) }, [
            { op: 'connect', connection: 'a', server: 'web' },
            { ...continuation, save_state: 's' },
            { ...continuation, input_responses: ALPHA, state: 's' },
            { op: 'status', connection: 'a', operation_id: 'http-lost' },
            { ...continuation, input_responses: ALPHA, state: 's' },
            { op: 'close', connection: 'a' },
          ]),
          { env: DRIVER_ENV },
        );
        assertRan(dir, 'lost', run, 6);
        assert.equal(step(run, 1)['outcome'], 'input_required');
        // Not stdio's SdkError CONNECTION_CLOSED: over HTTP the platform fetch's own failure comes through as is.
        assert.deepEqual(step(run, 2)['threw'], {
          type: 'TypeError',
          code: null,
          message: 'fetch failed',
          data: null,
          cause: 'SocketError: other side closed',
        });
        const status = step(run, 3);
        assert.equal(status['outcome'], 'result', 'the connection is still usable');
        assert.equal(status['result']['structuredContent']['state'], 'applied');
        const replay = step(run, 4);
        assert.equal(replay['outcome'], 'result', JSON.stringify(replay));
        assert.equal(replay['result']['structuredContent']['replayed'], true);
        assert.ok(server.alive(), 'close-after-commit keeps the server serving');
      } finally {
        await server.stop();
      }
    });
  });
}

/** A plain listening socket where a server would be: any request the driver sent would arrive here. */
async function listener(host: string): Promise<{ server: Server; port: number; connections: () => number }> {
  let count = 0;
  const server = createServer((socket) => {
    count += 1;
    socket.destroy();
  });
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(0, host, done);
  });
  return { server, port: (server.address() as AddressInfo).port, connections: () => count };
}

describe('HTTP server entries the driver refuses before sending anything', () => {
  let dir: string;
  before(() => {
    assert.ok(existsSync(DRIVER), `${DRIVER} is missing: run npm run build in ts-client`);
    dir = mkdtempSync(join(tmpdir(), 'ts-client-http-refused-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  async function refused(
    host: string,
    entry: (port: number) => Record<string, unknown>,
    env: NodeJS.ProcessEnv,
    line: string,
  ): Promise<void> {
    const target = await listener(host);
    try {
      const run = await runDriver(
        dir,
        'refused',
        script({ web: entry(target.port) }, [
          { op: 'connect', connection: 'a', server: 'web' },
          { op: 'status', connection: 'a', operation_id: 'never-sent' },
        ]),
        { env },
      );
      assert.equal(run.status, 2, run.stderr);
      assert.equal(run.stderr, `${line}\n`, 'exactly one stderr line');
      assert.equal(run.stdout, '');
      assert.deepEqual(run.records, []);
      assert.equal(target.connections(), 0, 'the driver connected although it refused the script');
    } finally {
      target.server.close();
    }
  }

  const withoutToken = { ...process.env };
  delete withoutToken['LAB_TEST_TOKEN'];
  const withToken = { ...withoutToken, LAB_TEST_TOKEN: ALICE_TOKEN };
  const at = (url: string) => (port: number) => ({ url: url.replace('PORT', String(port)), bearer_token_env: 'LAB_TEST_TOKEN' });

  test('a token variable that is not set: exit 2, no request', async () => {
    await refused(
      '127.0.0.1',
      at('http://127.0.0.1:PORT/mcp'),
      withoutToken,
      "script error: servers.web: bearer_token_env LAB_TEST_TOKEN is not set in the driver's environment",
    );
  });

  for (const [what, token, problem] of [
    ['shorter than 32 characters', 'short-token-0123456789abcdef', 'holds a token shorter than 32 characters'],
    ['with a space', 'spaced token 0123456789abcdef0123456789ab', 'holds a character other than printable ASCII (no spaces)'],
  ] as const) {
    test(`a token ${what}: exit 2, no request, the value never printed`, async () => {
      await refused(
        '127.0.0.1',
        at('http://127.0.0.1:PORT/mcp'),
        { ...withoutToken, LAB_TEST_TOKEN: token },
        `script error: servers.web: bearer_token_env LAB_TEST_TOKEN ${problem}`,
      );
    });
  }

  // 127.0.0.2 and 127.1 reach this machine too, but only the three names the contract lists are accepted.
  const LOOPBACK = 'url must name a loopback host (127.0.0.1, localhost or [::1])';
  for (const [host, url, problem] of [
    ['127.0.0.2', 'http://127.0.0.2:PORT/mcp', `${LOOPBACK}, not 127.0.0.2`],
    ['127.0.0.1', 'http://127.1:PORT/mcp', `${LOOPBACK}, not 127.1`],
    ['127.0.0.1', 'http://0x7f.0.0.1:PORT/mcp', `${LOOPBACK}, not 0x7f.0.0.1`],
    ['127.0.0.1', 'http://example.com:PORT/mcp', `${LOOPBACK}, not example.com`],
    ['127.0.0.1', 'http://[::1:PORT/mcp', LOOPBACK],
    ['127.0.0.1', 'http://localhost\\@example.com:PORT/mcp', 'url must not carry user information'],
    ['127.0.0.1', 'http://alice:pw@127.0.0.1:PORT/mcp', 'url must not carry user information'],
    ['127.0.0.1', 'https://127.0.0.1:PORT/mcp', 'url must be an http:// URL'],
    ['127.0.0.1', 'http://127.0.0.1:PORT/a b', 'url is not a URL'],
    ['127.0.0.1', 'http://127.0.0.1:99999/mcp', 'url is not a URL'],
    ['127.0.0.1', 'http://127.0.0.1:0/mcp', 'url has port 0, outside 1..65535'],
  ] as const) {
    test(`url ${url}: exit 2, no request`, async () => {
      await refused(host, at(url), withToken, `script error: servers.web: ${problem}`);
    });
  }

  for (const [what, entry, problem] of [
    ['without bearer_token_env', { url: 'http://127.0.0.1:PORT/mcp' }, 'bearer_token_env is required'],
    ['with a url that is not a string', { url: 7, bearer_token_env: 'LAB_TEST_TOKEN' }, 'url must be a non-empty string'],
    [
      'with a command as well',
      { url: 'http://127.0.0.1:PORT/mcp', bearer_token_env: 'LAB_TEST_TOKEN', command: ['node'] },
      'unknown member "command"',
    ],
    [
      'with an env as well',
      { url: 'http://127.0.0.1:PORT/mcp', bearer_token_env: 'LAB_TEST_TOKEN', env: {} },
      'unknown member "env"',
    ],
  ] as const) {
    test(`an HTTP entry ${what}: exit 2, no request`, async () => {
      const fill = (port: number): Record<string, unknown> =>
        JSON.parse(JSON.stringify(entry).replace('PORT', String(port))) as Record<string, unknown>;
      await refused('127.0.0.1', fill, withToken, `script error: servers.web: ${problem}`);
    });
  }
});
