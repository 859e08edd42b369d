/** The reader of the shared rule tables; RuleTableTest checks its Java twin alike. */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, test } from 'node:test';
import { loadRuleTable, ruleCases } from './rule-table.js';

const cases = (rows: unknown) => ruleCases('t.json', { cases: rows });

describe('shared rule tables', () => {
  test('every table with cases reads', () => {
    const dir = dirname(loadRuleTable('stdio-jvm-options.json').file);
    // a table with a format of its own has its own reader and tests (client-script-rules, tool-table)
    const tables = readdirSync(dir)
      .filter((f) => f.endsWith('.json') && !('format' in JSON.parse(readFileSync(join(dir, f), 'utf8'))))
      .map((f) => loadRuleTable(f));
    const withCases = tables.filter((t) => 'cases' in t.root);
    assert.ok(withCases.length > 0, `no table with cases in ${dir}`);
    for (const table of withCases) {
      assert.equal(typeof table.root['rule'], 'string', `${table.file} states its rule`);
      assert.ok(table.cases.length > 0, table.file);
    }
  });

  test("a common verdict is each language's, and a difference is picked", () => {
    const read = cases([
      { name: 'same', expect: 1 },
      { name: 'differs', expect_by_language: { java: 2, typescript: 3 }, difference: 'why' },
    ]);
    assert.deepEqual(read.map((c) => c.expected), [1, 3]);
    assert.equal(read[1]?.difference, 'why');
  });

  test('placeholders expand everywhere but in their definition', () => {
    const [only] = cases([
      { name: 'long', expand: { '@x3': { repeat: 'ab', times: 3 } }, input: { a: ['@x3', '@x3 '] }, expect: { value: '@x3' } },
    ]);
    assert.deepEqual(only?.row['input'], { a: ['ababab', '@x3 '] });
    assert.deepEqual(only?.expected, { value: 'ababab' });
    assert.deepEqual(Object.keys(only?.row['expand'] as object), ['@x3']);
  });

  test('a malformed case fails the table', () => {
    const refusals: Array<[unknown, RegExp]> = [
      [[], /non-empty/],
      [[{ expect: 1 }], /a name of its own/],
      [[{ name: 'a', expect: 1 }, { name: 'a', expect: 1 }], /a name of its own/],
      [[{ name: 'a' }], /exactly one of/],
      [[{ name: 'a', expect: 1, expect_by_language: { java: 1, typescript: 2 }, difference: 'd' }], /exactly one of/],
      [[{ name: 'a', expect: 1, difference: 'd' }], /a difference but one verdict/],
      [[{ name: 'a', expect_by_language: { java: 1 }, difference: 'd' }], /a java and a typescript/],
      [[{ name: 'a', expect_by_language: { java: 1, typescript: 2, python: 3 }, difference: 'd' }], /a java and a typescript/],
      [[{ name: 'a', expect_by_language: { java: 1, typescript: 1 }, difference: 'd' }], /use expect/],
      [[{ name: 'a', expect_by_language: { java: 1, typescript: 2 } }], /why the languages differ/],
      [[{ name: 'a', expect_by_language: { java: 1, typescript: 2 }, difference: ' ' }], /why the languages differ/],
    ];
    for (const [rows, message] of refusals) assert.throws(() => cases(rows), message, JSON.stringify(rows));
  });
});
