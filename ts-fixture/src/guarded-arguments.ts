/**
 * The arguments of create_guarded_issue as the fixture reads them before any bridge call, with the messages of
 * lab.continuationreplay.store.guard.GuardedIssueArguments (the bridge checks them again through that class), and
 * the digest that binds them into the signed requestState.
 */
import { createHash } from 'node:crypto';
import { canonicalJson } from './canonical-json.js';
import { isPlainObject } from './fingerprint.js';

export const MAX_OPERATION_ID_LENGTH = 256;
export const MAX_TEXT_LENGTH = 65_536;
export const MODES = ['atomic', 'partial'] as const;
export type Mode = (typeof MODES)[number];

export interface GuardedArguments {
  readonly operation_id: string;
  readonly title: string;
  readonly mode: Mode;
}

export class InvalidArguments extends Error {}

/** Validates raw argument values; an absent mode is atomic. */
export function guardedArguments(operationId: unknown, title: unknown, mode: unknown): GuardedArguments {
  if (typeof operationId !== 'string' || operationId === '' || typeof title !== 'string' || title === '') {
    throw new InvalidArguments('operation_id and title are required');
  }
  if (operationId.length > MAX_OPERATION_ID_LENGTH) {
    throw new InvalidArguments(`operation_id is longer than ${MAX_OPERATION_ID_LENGTH} characters`);
  }
  if (title.length > MAX_TEXT_LENGTH) throw new InvalidArguments(`title is longer than ${MAX_TEXT_LENGTH} characters`);
  if (mode === undefined) return { operation_id: operationId, title, mode: 'atomic' };
  const known = MODES.find((m) => m === mode);
  if (known === undefined) throw new InvalidArguments("mode must be 'atomic' or 'partial'");
  return { operation_id: operationId, title, mode: known };
}

/**
 * Lowercase hex SHA-256 of canonicalJson({operation_id, title, mode}), mode defaulted to atomic. Values are taken as
 * they come (no validation): a digest of anything else than the minted strings simply does not match.
 */
export function argumentsDigest(args: unknown): string {
  if (!isPlainObject(args)) throw new TypeError('tool arguments must be an object');
  const bound = { operation_id: args['operation_id'], title: args['title'], mode: args['mode'] ?? 'atomic' };
  return createHash('sha256').update(canonicalJson(bound), 'utf8').digest('hex');
}
