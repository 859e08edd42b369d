/** The seed's tamper, as the lab's case 05 applies it: the middle character becomes "A", or "B" if it already is. */
export function tamper(token: string): string {
  const middle = Math.floor(token.length / 2);
  const replacement = token.charAt(middle) === 'A' ? 'B' : 'A';
  return token.slice(0, middle) + replacement + token.slice(middle + 1);
}
