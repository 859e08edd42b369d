/**
 * Two behaviours of @modelcontextprotocol/client 2.4.0 that docs/findings/ describes, shown on the SDK itself (no
 * driver, no relay) against the guarded Java server.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client, UnsupportedProtocolVersionError } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { requireBuilt, serverCommand, wireEnvironment } from './harness.js';

describe('findings on the TypeScript client against the Java server', () => {
  let dir: string;
  before(() => {
    requireBuilt('java');
    dir = mkdtempSync(join(tmpdir(), 'ts-client-findings-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('a connect refused with -32022 ends the server by itself: its stdin is closed, no close() needed', async () => {
    const exited = join(dir, 'exited');
    // The shell writes the server's exit status once the server has ended, which it does at the end of its input.
    const command = serverCommand('java').map((word) => `'${word}'`).join(' ');
    const transport = new StdioClientTransport({
      command: 'sh',
      args: ['-c', `${command}; echo $? > '${exited}'`],
      env: wireEnvironment(join(dir, 'default.sqlite3')),
      stderr: 'pipe',
    });
    // No versionNegotiation option: the client offers 2025-11-25.
    const client = new Client({ name: 'findings', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });

    await assert.rejects(client.connect(transport), UnsupportedProtocolVersionError);
    const deadline = Date.now() + 10_000;
    while (!existsSync(exited) && Date.now() < deadline) await new Promise((done) => setTimeout(done, 50));

    assert.ok(existsSync(exited), 'the server still ran 10 s after the refused connect');
    assert.equal(readFileSync(exited, 'utf8').trim(), '0');
    assert.equal(transport.pid, null, 'the transport has let go of its process');
  });

  for (const mode of [{ pin: '2026-07-28' }, 'auto'] as const) {
    test(`version mode ${JSON.stringify(mode)} starts the server command twice for one connection`, async () => {
      const starts = join(dir, `starts-${typeof mode === 'string' ? mode : 'pin'}`);
      const command = serverCommand('java').map((word) => `'${word}'`).join(' ');
      const transport = new StdioClientTransport({
        command: 'sh',
        args: ['-c', `echo started >> '${starts}'; exec ${command}`],
        env: wireEnvironment(join(dir, 'starts.sqlite3')),
        stderr: 'pipe',
      });
      const client = new Client(
        { name: 'findings', version: '1.0.0' },
        { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode } },
      );
      try {
        await client.connect(transport);
        // connect() returns once the kept process is spawned (the probe already discovered the server), so a
        // request is needed before its start is sure to be written down.
        await client.listTools();
        // The discover probe runs in a process of its own, which the client ends before it starts the one it keeps.
        assert.equal(readFileSync(starts, 'utf8'), 'started\nstarted\n');
      } finally {
        await client.close();
      }
    });
  }

  test('after listTools(), the automatic callTool() is not hit by the output-schema check', async () => {
    const [command, ...args] = serverCommand('java');
    const transport = new StdioClientTransport({
      command: command as string,
      args,
      env: wireEnvironment(join(dir, 'auto.sqlite3')),
      stderr: 'pipe',
    });
    const client = new Client(
      { name: 'findings', version: '1.0.0' },
      { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { body: 'alpha' } }));
    try {
      await client.connect(transport);
      const tools = await client.listTools();
      assert.ok(tools.tools.find((tool) => tool.name === 'create_guarded_issue')?.outputSchema !== undefined);

      // The rounds run inside the call; only the final result, which has structured content, meets the check.
      const result = await client.callTool({
        name: 'create_guarded_issue',
        arguments: { operation_id: 'auto-after-list', title: 't', mode: 'atomic' },
      });

      assert.deepEqual(result.structuredContent, {
        operationId: 'auto-after-list',
        effectId: 1,
        result: 'created 1',
        replayed: false,
        state: 'applied',
      });
    } finally {
      await client.close();
    }
  });
});
