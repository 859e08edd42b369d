/**
 * The TypeScript example of docs/recovering-a-lost-reply.md, run against both guarded servers as real processes:
 * the first server commits and exits before it replies (WIRE_FAULT=drop-after-commit), the second is a restart on
 * the same database. The region between the snippet markers is the page's code block, word for word (the Java test
 * RecoveryDocsTest checks that).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type TestContext, after, afterEach, before, describe, test } from 'node:test';
import { Client, SdkError, SdkErrorCode, isInputRequiredResult } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { requireBuilt, serverCommand, wireEnvironment } from './harness.js';

// snippet:recover-lost-reply
/** The issue as the server stored it; the status read-back too when the first reply was lost. */
export interface Recovered {
  issue: Record<string, unknown>;
  status: Record<string, unknown> | null;
  replyLost: boolean;
}

export function newClient(): Client {
  // Without the pin the client offers 2025-11-25, which a server that speaks only 2026-07-28 refuses.
  return new Client(
    { name: 'issue-app', version: '1.0.0' },
    { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
}

export async function createIssue(
  connect: () => Promise<Client>,
  args: Record<string, unknown>,
  body: string,
): Promise<Recovered> {
  const client = await connect();
  // Manual rounds through request(): after listTools(), callTool() checks the tool's output schema against the
  // input_required answer and throws (docs/findings/ts-client-output-schema-on-input-required.md).
  const roundOne = await client.request(
    { method: 'tools/call', params: { name: 'create_guarded_issue', arguments: args } },
    { allowInputRequired: true },
  );
  if (!isInputRequiredResult(roundOne)) throw new Error(`expected input_required, got ${JSON.stringify(roundOne)}`);
  // The application keeps the state: an exact replay needs the same arguments, answers and state.
  const commit = {
    name: 'create_guarded_issue',
    arguments: args,
    inputResponses: { body: { action: 'accept', content: { body } } },
    requestState: roundOne.requestState,
  };
  try {
    const result = await client.request({ method: 'tools/call', params: commit }, { allowInputRequired: true });
    return { issue: accepted(result), status: null, replyLost: false };
  } catch (error) {
    // Only a lost or timed-out reply leaves the write open; anything else is the server's answer.
    const unknown =
      error instanceof SdkError &&
      (error.code === SdkErrorCode.ConnectionClosed || error.code === SdkErrorCode.RequestTimeout);
    if (!unknown) throw error;
    // Never start again from round one: the new state is refused as operation_conflict, and the stored
    // result stays out of reach.
  }
  const again = await connect();
  const status = accepted(
    await again.callTool({ name: 'get_operation_status', arguments: { operation_id: args['operation_id'] } }),
  );
  // Whatever the status says, the exact replay is safe: the stored result (replayed: true) or one write.
  const replay = await again.request({ method: 'tools/call', params: commit }, { allowInputRequired: true });
  return { issue: accepted(replay), status, replyLost: true };
}

/** A refusal comes two ways: thrown (ProtocolError, a JSON-RPC error) or as a result with isError. */
function accepted(result: unknown): Record<string, unknown> {
  const value = result as { isError?: boolean; content?: unknown; structuredContent?: unknown };
  if (isInputRequiredResult(result)) throw new Error('expected a complete result, got input_required');
  if (value.isError === true) throw new Error(`refused: ${JSON.stringify(value.content)}`);
  return value.structuredContent as Record<string, unknown>;
}
// end-snippet

/** The issue rows in the database itself; without sqlite3 the server's own status answer has to do. */
function issueRows(t: TestContext, db: string): number | null {
  if (!existsSync(db)) return 0;
  const count = spawnSync('sqlite3', ['-readonly', '-cmd', '.timeout 10000', db, 'SELECT count(*) FROM issues'], { encoding: 'utf8' });
  if (count.error !== undefined) {
    t.diagnostic(`sqlite3 is not available (${count.error.message}): rows checked through get_operation_status only`);
    return null;
  }
  assert.equal(count.status, 0, count.stderr);
  return Number(count.stdout.trim());
}

for (const kind of ['java', 'typescript'] as const) {
  describe(`the recovery example against the ${kind} server`, () => {
    let dir: string;
    const open: Array<{ client: Client; transport: StdioClientTransport }> = [];

    before(() => {
      requireBuilt(kind);
      dir = mkdtempSync(join(tmpdir(), `recover-example-${kind}-`));
    });
    afterEach(async () => {
      for (const { client, transport } of open.splice(0)) {
        await client.close().catch(() => undefined);
        await transport.close().catch(() => undefined);
      }
    });
    after(() => rmSync(dir, { recursive: true, force: true }));

    /** The application's "start the server": one fault per start, in order, then none. */
    function connector(db: string, faults: string[]): () => Promise<Client> {
      const [command, ...args] = serverCommand(kind);
      return async () => {
        const fault = faults.shift();
        const transport = new StdioClientTransport({
          command: command as string,
          args,
          env: wireEnvironment(db, fault === undefined ? {} : { WIRE_FAULT: fault }),
          stderr: 'pipe',
        });
        const client = newClient();
        open.push({ client, transport });
        await client.connect(transport);
        return client;
      };
    }

    test('a lost commit is settled by status and an exact replay, with one issue', async (t) => {
      const db = join(dir, 'lost.sqlite3');
      const args = { operation_id: 'issue-42', title: 'Printer on fire', mode: 'atomic' };

      const recovered = await createIssue(connector(db, ['drop-after-commit']), args, 'alpha');

      assert.equal(recovered.replyLost, true, 'the first server exits after its commit: the reply must be lost');
      assert.equal(recovered.status?.['state'], 'applied');
      assert.equal(recovered.status?.['storedResult'], 'created 1');
      assert.deepEqual(recovered.status?.['matchingIds'], [1]);
      assert.equal(recovered.issue['replayed'], true);
      assert.equal(recovered.issue['result'], 'created 1');
      const rows = issueRows(t, db);
      if (rows !== null) assert.equal(rows, 1, 'one issue, however the reply went');
    });

    test('without a lost reply the commit answers directly', async (t) => {
      const db = join(dir, 'direct.sqlite3');
      const args = { operation_id: 'issue-43', title: 'Paper jam', mode: 'atomic' };

      const recovered = await createIssue(connector(db, []), args, 'alpha');

      assert.equal(recovered.replyLost, false);
      assert.equal(recovered.status, null);
      assert.equal(recovered.issue['replayed'], false);
      const rows = issueRows(t, db);
      if (rows !== null) assert.equal(rows, 1);
    });

    test('a guard refusal reaches the caller as an error, thrown or from isError', async (t) => {
      const db = join(dir, 'refused.sqlite3');
      const args = { operation_id: 'issue-44', title: 'Toner', mode: 'atomic' };
      await createIssue(connector(db, []), args, 'alpha');

      // The same operation id with another answer: the guard refuses it (operation_conflict).
      await assert.rejects(createIssue(connector(db, []), args, 'beta'), /operation_conflict/);
      const rows = issueRows(t, db);
      if (rows !== null) assert.equal(rows, 1);
    });
  });
}
