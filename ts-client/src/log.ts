/** Diagnostics of the driver: stderr only, because stdout is no part of the driver's contract. */
export function log(message: string): void {
  process.stderr.write(`ts-client: ${message}\n`);
}
