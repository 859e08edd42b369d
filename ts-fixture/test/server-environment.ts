/**
 * The environment the tests start a fixture server with: what it needs to find Java for its bridge (PATH, HOME,
 * JAVA_HOME), the synthetic test keys and the frozen clock and lifetimes every test shares, then the test's own
 * variables (its store, backend, principal or tokens file), then a test's overrides, where `undefined` removes one.
 * Nothing else of the test runner's environment reaches the server.
 */
export const TEST_STATE_KEY = '8cac6b8c4ec375b861c294c1e49f902e5beb661a50b9cb3323c4ae30eb0d7dfc';
export const TEST_FINGERPRINT_KEY = '8c0aed9f1ff0487480b140421d28d2e49f5a61b8f1837dab9304a6d126f7adba';

export function serverEnvironment(
  own: Record<string, string>,
  extra: Record<string, string | undefined> = {},
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env['PATH'],
    HOME: process.env['HOME'],
    WIRE_CLOCK_EPOCH: '1790035200',
    WIRE_AUTHORITY_TTL: '300',
    WIRE_REPLAY_RETENTION_TTL: '360',
    WIRE_REQUEST_STATE_TTL: '600',
    WIRE_STATE_KEY_HEX: TEST_STATE_KEY,
    WIRE_FINGERPRINT_KEY_HEX: TEST_FINGERPRINT_KEY,
    ...own,
  };
  if (process.env['JAVA_HOME'] !== undefined) env['JAVA_HOME'] = process.env['JAVA_HOME'];
  for (const [name, value] of Object.entries(extra)) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return env;
}
