/** UTF-16 checks shared by the parser and the canonicaliser. */

export const UNPAIRED_SURROGATE = 'unpaired UTF-16 surrogate is not valid Unicode';
export const UNPAIRED_SURROGATE_IN_KEY = 'object key with an unpaired UTF-16 surrogate is not valid Unicode';

export function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

/** True when some surrogate code unit in `text` is not part of a high-low pair. */
export function hasUnpairedSurrogate(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0xd800 || c > 0xdfff) continue;
    if (c <= 0xdbff && i + 1 < text.length && isLowSurrogate(text.charCodeAt(i + 1))) {
      i++;
      continue;
    }
    return true;
  }
  return false;
}

/** A key as it appears in an error path; unpaired surrogates and C0 controls are shown escaped. */
export function pathSegment(key: string): string {
  let out = '';
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < key.length && isLowSurrogate(key.charCodeAt(i + 1))) {
      out += key[i]! + key[i + 1]!;
      i++;
    } else if (c < 0x20 || (c >= 0xd800 && c <= 0xdfff)) {
      out += '\\u' + c.toString(16).padStart(4, '0');
    } else {
      out += key[i]!;
    }
  }
  return `.${out}`;
}
