/**
 * The tool result shapes. TS SDK v2 reports application failures as isError tool results (Java reports them as
 * JSON-RPC errors); the lab keeps that difference and records it rather than hiding it.
 */
import type { CallToolResult } from '@modelcontextprotocol/server';

/** Ledger refusals the client must see by their stable code, the same in every SDK. */
export const OPERATION_ERRORS = [
  'operation_conflict',
  'operation_authority_expired',
  'operation_retention_expired',
  'operation_in_progress',
] as const;

export const INVALID_APPLICATION_REQUEST = 'invalid_application_request';

/** The text a requestState bound to other arguments is refused with if it ever gets past the verify hook. */
export const INVALID_REQUEST_STATE = 'Invalid or expired requestState';

export function complete(result: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(result) }], structuredContent: result };
}

export function toolError(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/** operation_* → the code itself; an invalid request → the guard's message; anything else → bridge_error: kind. */
export function bridgeErrorText(kind: string, detail: string): string {
  if ((OPERATION_ERRORS as readonly string[]).includes(kind)) return kind;
  if (kind === INVALID_APPLICATION_REQUEST) return detail;
  return `bridge_error: ${kind}`;
}
