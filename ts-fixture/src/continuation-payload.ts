/**
 * What the fixture signs into requestState with the SDK codec. The codec binds only the principal tag and an expiry,
 * so the payload carries the rest: the tool it was minted for, a digest of that call's arguments, and the
 * application continuation state (seed spec §3) that the bridge hands to the shared guard.
 */
import { randomBytes } from 'node:crypto';
import { isPlainObject } from './fingerprint.js';
import type { GuardedArguments } from './guarded-arguments.js';
import { argumentsDigest } from './guarded-arguments.js';

export const GUARDED_TOOL = 'create_guarded_issue';

/** Members in minting order: v, operation_id, nonce, issued_at, authority_expires_at, replay_expires_at. */
export interface ContinuationState {
  readonly v: 1;
  readonly operation_id: string;
  readonly nonce: string;
  readonly issued_at: number;
  readonly authority_expires_at: number;
  readonly replay_expires_at: number;
}

export interface ContinuationPayload {
  readonly tool: string;
  readonly arguments_digest: string;
  readonly state: ContinuationState;
}

export interface MintTimes {
  readonly now: number;
  readonly authorityTtl: number;
  readonly replayRetentionTtl: number;
}

/** A fresh payload for a first round: a new 16-byte nonce each time, so two first rounds are two operations. */
export function mintPayload(args: GuardedArguments, times: MintTimes): ContinuationPayload {
  return {
    tool: GUARDED_TOOL,
    arguments_digest: argumentsDigest(args),
    state: {
      v: 1,
      operation_id: args.operation_id,
      nonce: randomBytes(16).toString('hex'),
      issued_at: times.now,
      authority_expires_at: times.now + times.authorityTtl,
      replay_expires_at: times.now + times.replayRetentionTtl,
    },
  };
}

/**
 * The payload's outer shape, checked after the MAC. Only this fixture can mint under its key, so a failure here
 * means a key shared with something else; the state's own rules are the guard's, checked in the bridge.
 */
export function readPayload(value: unknown): ContinuationPayload {
  if (
    !isPlainObject(value) ||
    typeof value['tool'] !== 'string' ||
    typeof value['arguments_digest'] !== 'string' ||
    !isPlainObject(value['state'])
  ) {
    throw new Error('payload');
  }
  return value as unknown as ContinuationPayload;
}
