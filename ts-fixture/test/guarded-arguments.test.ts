/**
 * The create_guarded_issue arguments. The cases both languages share live in vectors/rules/guarded-arguments.json,
 * which GuardedIssueArgumentsTest (Java) reads too; the arguments digest is the fixture's own.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { argumentsDigest, guardedArguments, InvalidArguments } from '../src/guarded-arguments.js';
import { loadRuleTable } from './rule-table.js';

const TABLE = loadRuleTable('guarded-arguments.json');

describe('create_guarded_issue arguments: the shared table', () => {
  for (const rule of TABLE.cases) {
    test(rule.name, () => {
      // An absent member is undefined, as the SDK hands the handler its arguments.
      const args = rule.row['arguments'] as Record<string, unknown>;
      const read = () => guardedArguments(args['operation_id'], args['title'], args['mode']);
      if ('accepted' in rule.expected) {
        assert.deepEqual(read(), rule.expected['accepted']);
      } else {
        assert.throws(read, (error: unknown) => {
          assert.ok(error instanceof InvalidArguments, String(error));
          assert.equal(error.message, rule.expected['error']);
          return true;
        });
      }
    });
  }
});

describe('arguments digest', () => {
  // Expected values: SHA-256 of the canonical JSON text, computed independently of this code.
  test('is SHA-256 of canonical {operation_id, title, mode} with mode defaulted', () => {
    const digest = '0bfd2287a3d8f15734dcf23118888298afe090daa814442cbd3045e7c2c2c355';
    assert.equal(argumentsDigest({ operation_id: 'case-01', title: 'guarded-01' }), digest);
    assert.equal(argumentsDigest({ title: 'guarded-01', mode: 'atomic', operation_id: 'case-01' }), digest);
    assert.equal(
      argumentsDigest({ operation_id: 'case-01', title: 'guarded-01', mode: 'partial' }),
      '7b82d56f0976661c3fa4d213d0c57d0f3e3a70ed7196e600f5a5d7493355fb18',
    );
    assert.equal(
      argumentsDigest({ operation_id: 'case-01', title: 'café 😀' }),
      '9ef436de9742d06e8033c114f8fa7368b1ce8942d75d3547cbef36af94f198ee',
    );
  });

  test('any change of title, mode or operation id changes it; unrelated arguments do not', () => {
    const original = argumentsDigest({ operation_id: 'case-01', title: 'guarded-01' });
    assert.notEqual(argumentsDigest({ operation_id: 'case-01', title: 'guarded-02' }), original);
    assert.notEqual(argumentsDigest({ operation_id: 'case-02', title: 'guarded-01' }), original);
    assert.notEqual(argumentsDigest({ operation_id: 'case-01', title: 'guarded-01', mode: 'partial' }), original);
    assert.equal(argumentsDigest({ operation_id: 'case-01', title: 'guarded-01', extra: 1 }), original);
    assert.match(original, /^[0-9a-f]{64}$/);
  });

  test('arguments that cannot be canonical JSON throw instead of digesting', () => {
    assert.throws(() => argumentsDigest(null));
    assert.throws(() => argumentsDigest([]));
    assert.throws(() => argumentsDigest({ title: 't' }));
    assert.throws(() => argumentsDigest({ operation_id: 'x', title: '\ud800' }));
    assert.throws(() => argumentsDigest({ operation_id: 'x', title: 1.5 }));
  });
});
