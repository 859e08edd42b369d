/**
 * Strict reading of the continuation's input responses, the twin of
 * lab.continuationreplay.store.guard.InputResponses (same rules, same messages), applied before the bridge is called
 * so a malformed continuation never costs a bridge round trip.
 */
import { compareCodePoints } from './canonical-json.js';
import { isPlainObject } from './fingerprint.js';
import { MAX_TEXT_LENGTH } from './guarded-arguments.js';

export const NOT_ACCEPTED_TEXT = 'body response must be accepted text';
const BODY_RESPONSE_MEMBERS = new Set(['action', 'content', '_meta']);

export class InvalidInputResponses extends Error {}

/**
 * The accepted body text. `dropped` are the keys the SDK removed from the responses before the handler saw them
 * (entries that are not bare response objects); they still count as fields the client sent.
 */
export function acceptedBody(responses: unknown, dropped: readonly string[] = []): string {
  if (!isPlainObject(responses)) throw new InvalidInputResponses('invalid input responses');
  const keys = new Set([...Object.keys(responses), ...dropped]);
  if (!keys.has('body')) throw new InvalidInputResponses('missing body input response');
  if (keys.size !== 1) throw new InvalidInputResponses('unsupported input response fields');
  const response = responses['body'];
  if (!isPlainObject(response)) throw new InvalidInputResponses(NOT_ACCEPTED_TEXT);
  const unsupported = Object.keys(response)
    .filter((name) => !BODY_RESPONSE_MEMBERS.has(name))
    .sort(compareCodePoints);
  if (unsupported.length > 0) {
    throw new InvalidInputResponses(`unsupported body response fields: [${unsupported.join(', ')}]`);
  }
  const content = response['content'];
  const meta = response['_meta'];
  const accepted = response['action'] === 'accept';
  const noMeta = meta === undefined || meta === null;
  const textOnly =
    isPlainObject(content) && Object.keys(content).length === 1 && typeof content['body'] === 'string';
  if (!accepted || !noMeta || !textOnly) throw new InvalidInputResponses(NOT_ACCEPTED_TEXT);
  const body = content['body'] as string;
  if (body.length > MAX_TEXT_LENGTH) throw new InvalidInputResponses(`body is longer than ${MAX_TEXT_LENGTH} characters`);
  return body;
}

/** {"body":{"_meta":null,"action":"accept","content":{"body":<body>}}}: what the bridge binds. */
export function normalisedResponses(body: string): Record<string, unknown> {
  return { body: { _meta: null, action: 'accept', content: { body } } };
}
