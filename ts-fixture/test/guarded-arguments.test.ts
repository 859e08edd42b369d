import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { argumentsDigest, guardedArguments } from '../src/guarded-arguments.js';

describe('create_guarded_issue arguments', () => {
  test('mode defaults to atomic and partial is kept', () => {
    assert.deepEqual(guardedArguments('case-01', 'guarded-01', undefined), {
      operation_id: 'case-01',
      title: 'guarded-01',
      mode: 'atomic',
    });
    assert.equal(guardedArguments('case-01', 'guarded-01', 'partial').mode, 'partial');
  });

  test("refusals carry GuardedIssueArguments' messages", () => {
    const cases: ReadonlyArray<[unknown, unknown, unknown, string]> = [
      ['', 't', undefined, 'operation_id and title are required'],
      ['id', '', undefined, 'operation_id and title are required'],
      [7, 't', undefined, 'operation_id and title are required'],
      ['id', null, undefined, 'operation_id and title are required'],
      ['x'.repeat(257), 't', undefined, 'operation_id is longer than 256 characters'],
      ['id', 'x'.repeat(65_537), undefined, 'title is longer than 65536 characters'],
      ['id', 't', 'bulk', "mode must be 'atomic' or 'partial'"],
      ['id', 't', null, "mode must be 'atomic' or 'partial'"],
      ['id', 't', 'Atomic', "mode must be 'atomic' or 'partial'"],
    ];
    for (const [id, title, mode, message] of cases) {
      assert.throws(() => guardedArguments(id, title, mode), { message });
    }
    assert.equal(guardedArguments('x'.repeat(256), 'x'.repeat(65_536), undefined).mode, 'atomic');
  });
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
