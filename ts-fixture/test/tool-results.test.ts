import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { bridgeErrorText, complete, toolError } from '../src/tool-results.js';

describe('tool results', () => {
  test('ledger refusals are their code, invalid requests their message, anything else a bridge_error', () => {
    for (const kind of [
      'operation_conflict',
      'operation_authority_expired',
      'operation_retention_expired',
      'operation_in_progress',
    ]) {
      assert.equal(bridgeErrorText(kind, 'operation_id is already bound to …'), kind);
    }
    assert.equal(bridgeErrorText('invalid_application_request', 'requestState nonce missing'), 'requestState nonce missing');
    assert.equal(bridgeErrorText('storage_failure', '[SQLITE_BUSY] database is locked'), 'bridge_error: storage_failure');
    assert.equal(bridgeErrorText('internal_error', 'NullPointerException'), 'bridge_error: internal_error');
  });

  test('a complete result carries compact JSON text and the same structured content', () => {
    const result = { operationId: 'case-01', effectId: 1, result: 'created 1', replayed: false, state: 'applied' };
    assert.deepEqual(complete(result), {
      content: [{ type: 'text', text: JSON.stringify(result) }],
      structuredContent: result,
    });
    assert.deepEqual(toolError('operation_conflict'), {
      content: [{ type: 'text', text: 'operation_conflict' }],
      isError: true,
    });
  });
});
