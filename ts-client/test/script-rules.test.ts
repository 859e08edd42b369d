/**
 * Every case of the shared client-script table (<repo>/vectors/rules/client-script.json) through parseScript: the
 * four drivers are held to one table, so a refusal worded or ordered differently in one of them fails its own suite.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { type Script, ScriptError, parseScript } from '../src/script.js';
import { REPO } from './harness.js';

type Verdict = { error: string } | { error_starts: string } | { accepted: string[] };

interface Case {
  readonly id: string;
  readonly text?: string;
  readonly set?: Record<string, unknown>;
  readonly remove?: string[];
  readonly steps?: unknown[];
  readonly expect: Verdict;
  readonly note?: string;
}

interface Table {
  readonly format: string;
  readonly environment: Record<string, string>;
  readonly base: Record<string, unknown>;
  readonly cases: Case[];
}

// A missing table throws here and fails the file, never a skip.
const TABLE = JSON.parse(readFileSync(join(REPO, 'vectors', 'rules', 'client-script.json'), 'utf8')) as Table;
const MEMBERS = ['id', 'text', 'set', 'remove', 'steps', 'expect', 'note'];

function scriptText(c: Case): string {
  if (c.text !== undefined) return c.text;
  const document: Record<string, unknown> = structuredClone(TABLE.base);
  Object.assign(document, structuredClone(c.set ?? {}));
  for (const name of c.remove ?? []) delete document[name];
  if (c.steps !== undefined) document['steps'] = structuredClone(c.steps);
  return JSON.stringify(document);
}

/** "<step> <op>" for every step that gets a record: a parallel step's inner steps, not the parallel step. */
function recordedSteps(script: Script): string[] {
  return script.steps.flatMap((step) => (step.op === 'parallel' ? step.steps : [step])).map((s) => `${s.id} ${s.op}`);
}

function refusal(text: string): string {
  try {
    parseScript(text, TABLE.environment);
  } catch (e) {
    assert.ok(e instanceof ScriptError, `not a ScriptError: ${String(e)}`);
    return e.message;
  }
  assert.fail('the script was accepted');
}

describe('client-script table', () => {
  test('the table is well formed', () => {
    assert.equal(TABLE.format, 'client-script-rules/1');
    const ids = TABLE.cases.map((c) => c.id);
    assert.equal(new Set(ids).size, ids.length, 'every case needs an id of its own');
    for (const c of TABLE.cases) {
      assert.ok(typeof c.id === 'string' && c.id !== '', JSON.stringify(c));
      assert.deepEqual(Object.keys(c).filter((k) => !MEMBERS.includes(k)), [], c.id);
      assert.ok(c.text === undefined || (c.set === undefined && c.remove === undefined && c.steps === undefined), c.id);
      assert.equal(Object.keys(c.expect).length, 1, c.id);
    }
    assert.ok(TABLE.cases.length > 100);
  });

  for (const c of TABLE.cases) {
    test(c.id, () => {
      const text = scriptText(c);
      const expect = c.expect;
      if ('accepted' in expect) {
        assert.deepEqual(recordedSteps(parseScript(text, TABLE.environment)), expect.accepted);
      } else if ('error' in expect) {
        assert.equal(refusal(text), expect.error);
      } else {
        const line = refusal(text);
        assert.ok(line.startsWith(expect.error_starts) && !line.includes('\n'), line);
      }
    });
  }
});
