/**
 * How the fixture starts its bridge child: which argv, and with which environment. The child gets an allowlist of
 * variables: what it needs to find Java and the ledger, never the requestState key or the TTLs (it does not mint).
 */
import { join, resolve } from 'node:path';

export const BRIDGE_COMMAND = 'LAB_BRIDGE_COMMAND';

export const INHERITED = ['PATH', 'LANG', 'LC_ALL', 'TMPDIR', 'HOME', 'JAVA_HOME'] as const;
export const PASSED_TO_BRIDGE = [
  'WIRE_SERVER_DB',
  'WIRE_BACKEND_ID',
  'WIRE_PRINCIPAL',
  'WIRE_CLOCK_EPOCH',
  'WIRE_FINGERPRINT_KEY_HEX',
  'WIRE_FAULT',
  // the PostgreSQL ledger, when one is configured: its URL, role, and the password's file (or the password)
  'WIRE_LEDGER_URL',
  'WIRE_LEDGER_USER',
  'WIRE_LEDGER_PASSWORD_FILE',
  'WIRE_LEDGER_PASSWORD',
] as const;

/**
 * The bridge's stdout is its wire: these keep the JVM's own logging (a rejected class-data archive, say) on stderr.
 * The shared rule table vectors/rules/stdio-jvm-options.json holds the same list for every launcher.
 */
export const STDIO_JVM_OPTIONS = ['-Xlog:disable', '-Xlog:all=warning:stderr', '-XX:+DisplayVMOutputToStderr'] as const;

/**
 * A bridge lives as long as its fixture, mostly one case: C1, the serial collector, a small heap
 * (vectors/rules/case-jvm-options.json, the options the lab gives a case's JVMs).
 */
export const CASE_JVM_OPTIONS = ['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC', '-Xmx64m', '-XX:-UsePerfData'] as const;

export class BridgeCommandError extends Error {}

/** `java <stdio options> <case options> -jar <repo>/bridge/target/bridge.jar`, java from JAVA_HOME when it is set. */
export function defaultBridgeCommand(repoRoot: string, env: NodeJS.ProcessEnv): string[] {
  const javaHome = env['JAVA_HOME'];
  const java = javaHome !== undefined && javaHome !== '' ? join(javaHome, 'bin', 'java') : 'java';
  return [java, ...STDIO_JVM_OPTIONS, ...CASE_JVM_OPTIONS, '-jar', resolve(repoRoot, 'bridge', 'target', 'bridge.jar')];
}

/** LAB_BRIDGE_COMMAND (a JSON array of argv strings) when set, else the default. */
export function bridgeCommand(repoRoot: string, env: NodeJS.ProcessEnv): string[] {
  const configured = env[BRIDGE_COMMAND];
  if (configured === undefined || configured === '') return defaultBridgeCommand(repoRoot, env);
  let argv: unknown;
  try {
    argv = JSON.parse(configured);
  } catch {
    throw new BridgeCommandError(`${BRIDGE_COMMAND} must be a JSON array of strings`);
  }
  if (!Array.isArray(argv) || argv.length === 0 || !argv.every((a) => typeof a === 'string' && a !== '')) {
    throw new BridgeCommandError(`${BRIDGE_COMMAND} must be a JSON array of strings`);
  }
  return argv as string[];
}

/** The bridge child's whole environment. */
export function bridgeEnvironment(env: NodeJS.ProcessEnv): Record<string, string> {
  const child: Record<string, string> = {};
  for (const name of [...INHERITED, ...PASSED_TO_BRIDGE]) {
    const value = env[name];
    if (value !== undefined) child[name] = value;
  }
  return child;
}
