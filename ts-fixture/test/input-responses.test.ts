/**
 * The strict input-response rules. The cases both languages share live in vectors/rules/input-responses.json, which
 * InputResponsesTest (Java) reads too; this file adds what only the fixture has.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { acceptedBody, InvalidInputResponses, NOT_ACCEPTED_TEXT, normalisedResponses } from '../src/input-responses.js';
import { loadRuleTable } from './rule-table.js';

const TABLE = loadRuleTable('input-responses.json');

describe('input responses: the shared table', () => {
  for (const rule of TABLE.cases) {
    test(rule.name, () => {
      const responses = rule.row['responses'];
      if ('body' in rule.expected) {
        assert.equal(acceptedBody(responses), rule.expected['body']);
      } else {
        assert.throws(
          () => acceptedBody(responses),
          (error: unknown) => {
            assert.ok(error instanceof InvalidInputResponses, String(error));
            assert.equal(error.message, rule.expected['error']);
            return true;
          },
        );
      }
    });
  }
});

describe('input responses', () => {
  test('undefined responses are invalid', () => {
    assert.throws(() => acceptedBody(undefined), { message: 'invalid input responses' });
  });

  test('keys the SDK dropped still count as sent', () => {
    const good = { body: { action: 'accept', content: { body: 'a' } } };
    assert.throws(() => acceptedBody(good, ['extra']), { message: 'unsupported input response fields' });
    // {"body":{"method":…,"result":…}} is dropped by the SDK: the body was sent, just not as accepted text
    assert.throws(() => acceptedBody({}, ['body']), { message: NOT_ACCEPTED_TEXT });
    assert.throws(() => acceptedBody({}, ['other']), { message: 'missing body input response' });
  });

  test('the normalised responses are what the bridge binds', () => {
    assert.equal(
      JSON.stringify(normalisedResponses('alpha')),
      '{"body":{"_meta":null,"action":"accept","content":{"body":"alpha"}}}',
    );
  });
});
