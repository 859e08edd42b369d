/**
 * The top-level members of a JSON object text, with their exact source spans. The text must already have passed
 * JSON.parse (so it is well formed); the scan only finds where each member starts and ends, iteratively, so a value
 * nested 10,000 deep costs no stack. Duplicate names are all listed, in order (JSON.parse keeps the last).
 */

export interface Member {
  /** The member's name, unescaped. */
  readonly name: string;
  /** The value's source text, exactly as sent. */
  readonly value: string;
  /** Where the member (its quoted name) starts and where its value ends, in `text`. */
  readonly start: number;
  readonly end: number;
}

const WHITESPACE = new Set([' ', '\t', '\n', '\r']);

function skipWhitespace(text: string, at: number): number {
  while (at < text.length && WHITESPACE.has(text[at] as string)) at++;
  return at;
}

/** `at` is on the opening quote; returns the index after the closing quote. */
function skipString(text: string, at: number): number {
  at++;
  while (at < text.length) {
    const c = text[at];
    if (c === '\\') at += 2;
    else if (c === '"') return at + 1;
    else at++;
  }
  throw new SyntaxError('unterminated string');
}

function skipValue(text: string, at: number): number {
  const c = text[at];
  if (c === '"') return skipString(text, at);
  if (c === '{' || c === '[') {
    let depth = 0;
    while (at < text.length) {
      const d = text[at];
      if (d === '"') {
        at = skipString(text, at);
        continue;
      }
      if (d === '{' || d === '[') depth++;
      else if (d === '}' || d === ']') {
        depth--;
        if (depth === 0) return at + 1;
      }
      at++;
    }
    throw new SyntaxError('unterminated value');
  }
  // A number or a literal: up to the next structural character or whitespace.
  while (at < text.length && !WHITESPACE.has(text[at] as string) && text[at] !== ',' && text[at] !== '}' && text[at] !== ']') at++;
  return at;
}

/** The members of the object `text` (which JSON.parse accepted as an object), in source order. */
export function topLevelMembers(text: string): Member[] {
  const members: Member[] = [];
  let at = skipWhitespace(text, 0);
  if (text[at] !== '{') throw new SyntaxError('not an object');
  at = skipWhitespace(text, at + 1);
  if (text[at] === '}') return members;
  while (true) {
    const start = at;
    const nameEnd = skipString(text, at);
    const name = JSON.parse(text.slice(start, nameEnd)) as string;
    at = skipWhitespace(text, nameEnd) + 1; // the colon
    const valueStart = skipWhitespace(text, at);
    const valueEnd = skipValue(text, valueStart);
    members.push({ name, value: text.slice(valueStart, valueEnd), start, end: valueEnd });
    at = skipWhitespace(text, valueEnd);
    if (text[at] === '}') return members;
    at = skipWhitespace(text, at + 1); // the comma
  }
}
