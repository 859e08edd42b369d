/**
 * The requestState verify hook the fixture gives the SDK: the codec's MAC, expiry and principal check, then the
 * bindings the codec does not make: the state must have been minted for this tool and for these arguments. Any
 * failure throws, which the SDK answers as JSON-RPC -32602 "Invalid or expired requestState" before any handler
 * (and so before any bridge call) runs.
 *
 * The token must also be spelt canonically: the codec decodes the signature with atob, which skips whitespace,
 * accepts padding and ignores the unused low bits of the last character, so one signature had many spellings and
 * `<token>\n` or `<token>=` verified like the token itself (found by `lab faults`, token-attacks). Only the spelling the
 * codec mints opens, as in the Java server.
 */
import type { RequestStateCodec, ServerContext } from '@modelcontextprotocol/server';
import { type ContinuationPayload, readPayload } from './continuation-payload.js';
import { argumentsDigest } from './guarded-arguments.js';
import type { ToolCallArguments } from './tool-call-arguments.js';

const TOKEN_SHAPE = /^v1\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]{43})$/;

/** `v1.<body>.<mac>` with both segments in canonical unpadded base64url and a 32-byte MAC. */
export function isCanonicalToken(state: string): boolean {
  const match = TOKEN_SHAPE.exec(state);
  if (match === null) return false;
  return match.slice(1).every((segment) => Buffer.from(segment, 'base64url').toString('base64url') === segment);
}

export function boundRequestStateVerify(
  codec: RequestStateCodec<unknown>,
  calls: Pick<ToolCallArguments, 'take'>,
): (state: string, ctx: ServerContext) => Promise<ContinuationPayload> {
  return async (state, ctx) => {
    // Taken first, so the record is gone whatever the outcome.
    const call = calls.take(ctx.mcpReq.id);
    if (!isCanonicalToken(state)) throw new Error('not the canonical spelling of a token');
    const payload = readPayload(await codec.verify(state, ctx));
    // The thrown words reach only the server's onerror (stderr), never the wire.
    if (call === undefined) throw new Error('no recorded tool call for this request');
    if (call.name !== payload.tool) throw new Error('minted for another tool');
    let digest: string;
    try {
      digest = argumentsDigest(call.arguments);
    } catch {
      throw new Error('arguments cannot be digested');
    }
    if (digest !== payload.arguments_digest) throw new Error('minted for other arguments');
    return payload;
  };
}
