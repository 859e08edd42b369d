/**
 * The client record (client-record/1): one JSON line per step, written down as the SDK gave it back.
 */
import { appendFileSync } from 'node:fs';
import type { Json, JsonObject } from './script.js';

export const RECORD_FORMAT = 'client-record/1';

export type Outcome = 'connected' | 'closed' | 'listed' | 'result' | 'tool_error' | 'input_required' | 'threw';

export interface Thrown {
  readonly type: string;
  readonly code: string | number | null;
  readonly message: string;
  readonly data: Json;
  readonly cause: string | null;
}

export interface ClientRecord {
  readonly format: typeof RECORD_FORMAT;
  readonly client: 'typescript';
  readonly sdk_version: string;
  readonly step: number | string;
  readonly op: string;
  readonly connection: string;
  /** A connect step's only: how its connection reaches the server. */
  readonly transport?: 'stdio' | 'http';
  readonly api: string | null;
  readonly sent: JsonObject | null;
  readonly outcome: Outcome;
  readonly result: JsonObject | null;
  readonly threw: Thrown | null;
  readonly saved_state: string | null;
  readonly started_ms: number;
  readonly elapsed_ms: number;
}

/**
 * Appends each record as soon as its step ends, one synchronous write per line: if the driver (or the machine
 * under it) dies later, the lines for what already happened are on disk.
 */
export class RecordFile {
  constructor(private readonly path: string) {}

  /** Fails early, before any server starts, when the file cannot be written at all. */
  probe(): void {
    appendFileSync(this.path, '');
  }

  write(record: ClientRecord): void {
    appendFileSync(this.path, `${JSON.stringify(record)}\n`);
  }
}

/** A value as JSON, never throwing: error data may hold anything (a cycle, a bigint, a function). */
export function asJson(value: unknown): Json {
  if (value === undefined) return null;
  try {
    const text = JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
    return text === undefined ? null : (JSON.parse(text) as Json);
  } catch {
    return String(value);
  }
}

/**
 * Replaces every `requestState` by its length: a state is a bearer credential for the continuation, and the SDK
 * puts the last one into some error data (rounds exceeded, unsupported result type).
 */
export function withoutRequestStates(value: Json): Json {
  if (Array.isArray(value)) return value.map(withoutRequestStates);
  if (value === null || typeof value !== 'object') return value;
  const copy: JsonObject = {};
  for (const [name, member] of Object.entries(value)) {
    if (name === 'requestState') copy['request_state_length'] = typeof member === 'string' ? member.length : null;
    else copy[name] = withoutRequestStates(member);
  }
  return copy;
}

function describeCause(cause: unknown): string | null {
  if (cause === undefined || cause === null) return null;
  if (cause instanceof Error) return `${cause.constructor.name}: ${cause.message}`;
  return `${typeof cause}: ${String(cause)}`;
}

export function describeThrown(error: unknown): Thrown {
  if (!(error instanceof Error)) {
    return { type: typeof error, code: null, message: String(error), data: null, cause: null };
  }
  const fields = error as Error & { code?: unknown; data?: unknown };
  const code = typeof fields.code === 'string' || typeof fields.code === 'number' ? fields.code : null;
  return {
    type: error.constructor.name,
    code,
    message: error.message,
    data: withoutRequestStates(asJson(fields.data)),
    cause: describeCause(error.cause),
  };
}
