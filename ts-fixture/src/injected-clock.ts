/**
 * The lab's injected clock. Every time decision of the fixture, including the SDK codec's expiry (which reads
 * Date.now), must see WIRE_CLOCK_EPOCH, or two processes of one case would disagree about what is expired.
 */

// Taken when this module loads, before any pinClock: the conformance fixtures' states expire on the real clock
// (a checker must be able to wait their TTL out), while every decision of the guarded tools stays on the pinned one.
const systemNow = Date.now.bind(Date);

/** Whole seconds of the machine's own clock, unaffected by pinClock. */
export function systemEpochSeconds(): number {
  return Math.floor(systemNow() / 1000);
}

/** Freezes Date.now at `epochSeconds`; call before the codec is created or used. */
export function pinClock(epochSeconds: number): void {
  if (!Number.isSafeInteger(epochSeconds) || epochSeconds < 0) {
    throw new RangeError('the injected clock must be whole, non-negative epoch seconds');
  }
  const millis = epochSeconds * 1000;
  Date.now = () => millis;
}
