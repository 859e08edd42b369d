/** The strict input-response rules, message for message as lab.continuationreplay.store.guard.InputResponses. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { acceptedBody, NOT_ACCEPTED_TEXT, normalisedResponses } from '../src/input-responses.js';

describe('input responses', () => {
  test('an accepted text body is read, with or without a null _meta', () => {
    assert.equal(acceptedBody({ body: { action: 'accept', content: { body: 'alpha' } } }), 'alpha');
    assert.equal(acceptedBody({ body: { _meta: null, action: 'accept', content: { body: '' } } }), '');
  });

  const refused: ReadonlyArray<[string, unknown, string]> = [
    ['not an object', [], 'invalid input responses'],
    ['null', null, 'invalid input responses'],
    ['a string', 'body', 'invalid input responses'],
    ['no body', {}, 'missing body input response'],
    ['another key only', { title: {} }, 'missing body input response'],
    ['an extra key', { body: { action: 'accept', content: { body: 'a' } }, x: {} }, 'unsupported input response fields'],
    ['body not an object', { body: 'alpha' }, NOT_ACCEPTED_TEXT],
    ['body null', { body: null }, NOT_ACCEPTED_TEXT],
    ['unknown response fields', { body: { action: 'accept', content: { body: 'a' }, zeta: 1, alpha: 2 } },
      'unsupported body response fields: [alpha, zeta]'],
    ['declined', { body: { action: 'decline' } }, NOT_ACCEPTED_TEXT],
    ['cancelled with content', { body: { action: 'cancel', content: { body: 'a' } } }, NOT_ACCEPTED_TEXT],
    ['no action', { body: { content: { body: 'a' } } }, NOT_ACCEPTED_TEXT],
    ['a trace _meta', { body: { _meta: { trace: 't' }, action: 'accept', content: { body: 'a' } } }, NOT_ACCEPTED_TEXT],
    ['extra content field', { body: { action: 'accept', content: { body: 'a', priority: 1 } } }, NOT_ACCEPTED_TEXT],
    ['non-text body', { body: { action: 'accept', content: { body: 5 } } }, NOT_ACCEPTED_TEXT],
    ['content not an object', { body: { action: 'accept', content: 'a' } }, NOT_ACCEPTED_TEXT],
    ['body too long', { body: { action: 'accept', content: { body: 'x'.repeat(65_537) } } },
      'body is longer than 65536 characters'],
  ];
  for (const [name, responses, message] of refused) {
    test(`refused: ${name}`, () => assert.throws(() => acceptedBody(responses), { message }));
  }

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
