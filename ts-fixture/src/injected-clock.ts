/**
 * The lab's injected clock. Every time decision of the fixture, including the SDK codec's expiry (which reads
 * Date.now), must see WIRE_CLOCK_EPOCH, or two processes of one case would disagree about what is expired.
 */

/** Freezes Date.now at `epochSeconds`; call before the codec is created or used. */
export function pinClock(epochSeconds: number): void {
  if (!Number.isSafeInteger(epochSeconds) || epochSeconds < 0) {
    throw new RangeError('the injected clock must be whole, non-negative epoch seconds');
  }
  const millis = epochSeconds * 1000;
  Date.now = () => millis;
}
