/**
 * Turns one parsed input line into a LogicalRequest, optionally named. Member rules and messages match
 * lab.continuationreplay.vectors.LogicalRequestReader in Java.
 */
import { compareCodePoints, pathSegment, requireScalarValues } from './canonical-json.js';
import { isPlainObject, type LogicalRequest } from './fingerprint.js';

export interface NamedRequest {
  name: string | null;
  request: LogicalRequest;
}

export class RequestShapeError extends Error {}

const MEMBERS = new Set(['principal', 'tool_id', 'tool_version', 'arguments', 'continuation_state', 'input_responses']);

export function readNamedRequest(value: unknown): NamedRequest {
  const name = readName(value);
  const request = name === null ? value : (value as Record<string, unknown>)['request'];
  return { name, request: readLogicalRequest(request) };
}

/** The name of a named entry, null for a plain request; checks the envelope, not the request inside. */
export function readName(value: unknown): string | null {
  if (!isPlainObject(value)) throw new RequestShapeError('a line must hold a JSON object');
  if (!Object.hasOwn(value, 'request')) return null;
  const keys = Object.keys(value);
  if (keys.length !== 2 || !Object.hasOwn(value, 'name')) {
    throw new RequestShapeError('a named entry must have exactly the members "name" and "request"');
  }
  const name = value['name'];
  if (typeof name !== 'string' || /[\u0000-\u001f\u007f]/.test(name)) {
    throw new RequestShapeError('$.name: must be a string without control characters');
  }
  requireScalarValues(name, '$.name');
  return name;
}

export function readLogicalRequest(value: unknown): LogicalRequest {
  if (!isPlainObject(value)) throw new RequestShapeError('a LogicalRequest must be a JSON object');
  // Sorted, so that Java (insertion order) and JS (integer-like keys first) report the same member.
  for (const key of Object.keys(value).sort(compareCodePoints)) {
    if (!MEMBERS.has(key)) throw new RequestShapeError(`$${pathSegment(key)}: unknown LogicalRequest member`);
  }
  const principal = required(value, 'principal');
  if (principal !== null && typeof principal !== 'string') {
    throw new RequestShapeError('$.principal: must be a string or null');
  }
  const toolId = requiredString(value, 'tool_id');
  const toolVersion = requiredString(value, 'tool_version');
  const args = required(value, 'arguments');
  if (!isPlainObject(args)) throw new RequestShapeError('$.arguments: must be a JSON object');
  return {
    principal,
    tool_id: toolId,
    tool_version: toolVersion,
    arguments: args,
    continuation_state: Object.hasOwn(value, 'continuation_state') ? value['continuation_state'] : null,
    input_responses: Object.hasOwn(value, 'input_responses') ? value['input_responses'] : null,
  };
}

function required(value: Record<string, unknown>, member: string): unknown {
  if (!Object.hasOwn(value, member)) throw new RequestShapeError(`$.${member}: required`);
  return value[member];
}

function requiredString(value: Record<string, unknown>, member: string): string {
  const found = required(value, member);
  if (typeof found !== 'string') throw new RequestShapeError(`$.${member}: must be a string`);
  return found;
}
