/**
 * Runs the compiled driver as a process against the lab's real servers (also processes): paths to the built
 * artifacts, the servers' commands and WIRE_* environment, and a driver run that returns its exit status, its
 * output and the records it wrote.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
export const PACKAGE = resolve(HERE, '..', '..');
export const REPO = resolve(PACKAGE, '..');
export const DRIVER = join(PACKAGE, 'dist', 'driver.js');
export const JAVA_SERVER_JAR = join(REPO, 'java-server', 'target', 'java-server.jar');
export const TS_SERVER = join(REPO, 'ts-fixture', 'dist', 'server.js');
export const BRIDGE_JAR = join(REPO, 'bridge', 'target', 'bridge.jar');

export type Kind = 'java' | 'typescript';

/** A missing artifact fails the test with how to build it; skipping would pass a run that tested nothing. */
export function requireBuilt(kind: Kind): void {
  assert.ok(existsSync(DRIVER), `${DRIVER} is missing: run npm run build in ts-client`);
  const build = 'build the lab first: mvn -B -q -DskipTests package at the repository root';
  if (kind === 'java') {
    assert.ok(existsSync(JAVA_SERVER_JAR), `${JAVA_SERVER_JAR} is missing: ${build}`);
  } else {
    assert.ok(existsSync(TS_SERVER), `${TS_SERVER} is missing: ${build}`);
    assert.ok(existsSync(BRIDGE_JAR), `${BRIDGE_JAR} (the fixture's bridge) is missing: ${build}`);
  }
}

/**
 * A shared JVM options table: stdio-jvm-options.json (every JVM whose stdout is a wire) or case-jvm-options.json
 * (a JVM that lives for one case, as the lab starts its servers).
 */
function jvmOptions(table: 'stdio-jvm-options.json' | 'case-jvm-options.json'): string[] {
  const rule = JSON.parse(readFileSync(join(REPO, 'vectors', 'rules', table), 'utf8')) as { options: string[] };
  return rule.options;
}

function java(): string {
  const home = process.env['JAVA_HOME'];
  return home === undefined || home === '' ? 'java' : join(home, 'bin', 'java');
}

export function serverCommand(kind: Kind): string[] {
  if (kind === 'typescript') return [process.execPath, TS_SERVER];
  // The lab's own server options (ServerKind.SERVER_JVM_OPTIONS): the quickest start for a one-client server.
  return [java(), ...jvmOptions('stdio-jvm-options.json'), ...jvmOptions('case-jvm-options.json'), '-jar', JAVA_SERVER_JAR];
}

export const STATE_KEY_HEX = '5f0c6a3e9d2b47a18e3c0d9f6b2a71c45e8d3b9a0f1c2e4d6a7b8c9d0e1f2a3b';
const FINGERPRINT_KEY_HEX = 'a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90';

export function wireEnvironment(db: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    WIRE_SERVER_DB: db,
    WIRE_BACKEND_ID: 'sqlite:guarded-matrix',
    WIRE_PRINCIPAL: 'alice',
    WIRE_CLOCK_EPOCH: '1790035200',
    WIRE_AUTHORITY_TTL: '300',
    WIRE_REPLAY_RETENTION_TTL: '360',
    WIRE_REQUEST_STATE_TTL: '600',
    WIRE_STATE_KEY_HEX: STATE_KEY_HEX,
    WIRE_FINGERPRINT_KEY_HEX: FINGERPRINT_KEY_HEX,
    ...extra,
  };
}

export interface DriverRun {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly records: Array<Record<string, any>>;
  readonly elapsedMs: number;
}

/** A run longer than this is a hang: the driver is killed and the test fails with what it printed. */
const DRIVER_LIMIT_MS = 60_000;

export async function runDriver(
  dir: string,
  name: string,
  script: unknown,
  options: { env?: NodeJS.ProcessEnv; args?: string[] } = {},
): Promise<DriverRun> {
  const scriptPath = join(dir, `${name}.script.json`);
  const recordsPath = join(dir, `${name}.records.jsonl`);
  writeFileSync(scriptPath, typeof script === 'string' ? script : JSON.stringify(script, null, 2));
  const args = options.args ?? [scriptPath, recordsPath];
  const started = Date.now();
  const child = spawn(process.execPath, [DRIVER, ...args], {
    env: options.env ?? process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const killer = setTimeout(() => child.kill('SIGKILL'), DRIVER_LIMIT_MS);
  const status = await new Promise<number | null>((done) => child.on('close', (code) => done(code)));
  clearTimeout(killer);
  const records = existsSync(recordsPath)
    ? readFileSync(recordsPath, 'utf8')
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as Record<string, any>)
    : [];
  return { status, stdout, stderr, records, elapsedMs: Date.now() - started };
}

/** The records by their `step`, whatever order the parallel steps finished in. */
export function byStep(run: DriverRun): Map<string, Record<string, any>> {
  const steps = new Map<string, Record<string, any>>();
  for (const record of run.records) {
    const key = String(record['step']);
    assert.ok(!steps.has(key), `two records for step ${key}`);
    steps.set(key, record);
  }
  return steps;
}

export function step(run: DriverRun, id: number | string): Record<string, any> {
  const record = byStep(run).get(String(id));
  assert.ok(record !== undefined, `no record for step ${id}; stderr:\n${run.stderr}`);
  return record;
}

/** Test tokens, not anyone's secrets: alice's is in the server's tokens file, the other is known to no server. */
export const ALICE_TOKEN = 'alice-token-0123456789abcdef0123456789abcdef';
export const UNKNOWN_TOKEN = 'mallory-token-0123456789abcdef0123456789ab';

export interface HttpServer {
  readonly url: string;
  alive(): boolean;
  stderr(): string;
  stop(): Promise<void>;
}

const SERVER_START_LIMIT_MS = 60_000;

/**
 * One guarded server serving Streamable HTTP (`--http 0`) as a real process on 127.0.0.1. Over HTTP the driver only
 * connects; whoever runs it (here the test, for `lab clients --transport http` the lab) starts and stops the server.
 */
export async function startHttpServer(
  kind: Kind,
  dir: string,
  db: string,
  extra: Record<string, string> = {},
): Promise<HttpServer> {
  const tokens = join(dir, `tokens-${basename(db)}.json`);
  writeFileSync(tokens, JSON.stringify({ alice: ALICE_TOKEN }));
  // Over HTTP the principal is the token's; a WIRE_PRINCIPAL would only suggest otherwise.
  const { WIRE_PRINCIPAL: _ignored, ...wire } = wireEnvironment(db, extra);
  const [command, ...args] = serverCommand(kind) as [string, ...string[]];
  const child = spawn(command, [...args, '--http', '0'], {
    env: { ...process.env, ...wire, WIRE_BEARER_TOKENS_FILE: tokens },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  let exited = false;
  const exit = new Promise<void>((done) =>
    child.on('exit', () => {
      exited = true;
      done();
    }),
  );
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`the ${kind} server printed no URL:\n${stderr}`)), SERVER_START_LIMIT_MS);
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const serving = /serving (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stderr);
      if (serving !== null) {
        clearTimeout(timer);
        resolveUrl(serving[1] as string);
      }
    });
    void exit.then(() => {
      clearTimeout(timer);
      reject(new Error(`the ${kind} server ended with ${child.exitCode} before serving:\n${stderr}`));
    });
  });
  return {
    url,
    alive: () => !exited,
    stderr: () => stderr,
    // SIGTERM first (both servers close their listener and bridges on it), SIGKILL if that is not enough.
    stop: async () => {
      if (exited) return;
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exit;
      clearTimeout(killer);
    },
  };
}
