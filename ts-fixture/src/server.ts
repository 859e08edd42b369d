#!/usr/bin/env node
/**
 * The guarded TypeScript fixture: an MCP server on @modelcontextprotocol/server (SDK v2) speaking protocol
 * 2026-07-28 on stdio, whose effects go through one long-lived Java bridge child to the shared SQLite ledger.
 * stdout is the wire; every log line goes to stderr. Exit 2 for a bad configuration, 70 for drop-after-commit.
 * With `--http PORT` it serves Streamable HTTP on 127.0.0.1 instead (http-server.ts) and leaves stdout unused;
 * `--http PORT --conformance` adds the official conformance suite's fixtures (conformance-profile.ts).
 * `--unguarded` (stdio or HTTP) serves the unguarded control instead of the guarded tools (unguarded-tools.ts).
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequestStateCodec, McpServer } from '@modelcontextprotocol/server';
import { serveStdio, StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { BridgeClient } from './bridge-client.js';
import { BridgeCommandError, bridgeCommand, bridgeEnvironment } from './bridge-command.js';
import { boundRequestStateVerify } from './bound-request-state.js';
import { registerGuardedTools } from './guarded-tools.js';
import { registerUnguardedTools, unguardedStateVerify } from './unguarded-tools.js';
import { pinClock } from './injected-clock.js';
import { strictFrames } from './strict-frames.js';
import { ArgumentRecordingTransport, ToolCallArguments } from './tool-call-arguments.js';
import { type BearerTokens, readBearerTokens } from './bearer-tokens.js';
import {
  BEARER_TOKENS_FILE,
  ConfigurationError,
  type FixtureConfig,
  readConfig,
  readConformanceConfig,
  readHttpConfig,
} from './trusted-environment.js';

export const SERVER_NAME = 'continuation-replay-ts-fixture';
export const SERVER_VERSION = '0.1.0';
const BAD_CONFIGURATION = 2;
// dist/server.js → the repository root, where bridge/target/bridge.jar is.
const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

function log(message: string): void {
  process.stderr.write(`${SERVER_NAME}: ${message}\n`);
}

function configure(): { config: FixtureConfig; argv: string[] } {
  try {
    return { config: readConfig(process.env), argv: bridgeCommand(REPO_ROOT, process.env) };
  } catch (error) {
    if (error instanceof ConfigurationError || error instanceof BridgeCommandError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(BAD_CONFIGURATION);
    }
    throw error;
  }
}

function main(unguarded: boolean): void {
  const { config, argv } = configure();
  pinClock(config.clockEpoch);
  const codec = createRequestStateCodec<unknown>({
    key: config.stateKey,
    ttlSeconds: config.requestStateTtl,
    bind: () => config.principal,
  });
  const bridge = new BridgeClient({ argv, env: bridgeEnvironment(process.env) });
  bridge.start();
  const calls = new ToolCallArguments();
  const verify = unguarded ? unguardedStateVerify(codec, calls) : boundRequestStateVerify(codec, calls);
  const shutdown = (): void => void bridge.close();
  // The strict frame gate reads stdin; the SDK reads only the lines it lets through, and both write whole lines to
  // the same stdout (docs/typescript-fixture.md, "The strict frame gate").
  const stdin = strictFrames(process.stdin, process.stdout);
  const wire = new ArgumentRecordingTransport(new StdioServerTransport(stdin, process.stdout), calls, shutdown);

  const handle = serveStdio(
    () => {
      const server = new McpServer(
        { name: SERVER_NAME, version: SERVER_VERSION },
        { capabilities: { tools: {} }, requestState: { verify } },
      );
      server.server.onerror = (error) => log(error.message);
      if (unguarded) registerUnguardedTools(server, { codec, bridge });
      else registerGuardedTools(server, { config, codec, bridge, exit: (status) => process.exit(status) });
      return server;
    },
    { legacy: 'reject', transport: wire, onerror: (error) => log(error.message) },
  );
  process.on('SIGTERM', () => {
    shutdown();
    void handle.close();
  });
}

/** `--http PORT`: a decimal port, 0 for a free one. */
function httpPort(text: string | undefined): number {
  const port = /^[0-9]{1,5}$/.test(text ?? '') ? Number(text) : NaN;
  if (!(port >= 0 && port <= 65535)) {
    process.stderr.write('--http needs a port from 0 to 65535\n');
    process.exit(BAD_CONFIGURATION);
  }
  return port;
}

async function mainHttp(portText: string | undefined, conformance: boolean, unguarded: boolean): Promise<void> {
  const port = httpPort(portText);
  // Loaded for HTTP only: a stdio fixture, which the matrix starts about 25 times a run, skips node:http and the
  // SDK's HTTP handler (about 50 ms of CPU per start on two cores).
  const [{ serveHttp }, { CONFORMANCE_PRINCIPAL, ConformanceProfile }] = await Promise.all([
    import('./http-server.js'),
    import('./conformance-profile.js'),
  ]);
  let configured;
  try {
    const config = readHttpConfig(process.env, { conformance });
    const tokens: BearerTokens | undefined =
      config.bearerTokensFile === null ? undefined : readBearerTokens(config.bearerTokensFile);
    configured = {
      config,
      tokens,
      profile: conformance
        ? new ConformanceProfile({ stateKey: config.stateKey, stateTtlSeconds: readConformanceConfig(process.env).stateTtl })
        : undefined,
      argv: bridgeCommand(REPO_ROOT, process.env),
    };
  } catch (error) {
    if (error instanceof ConfigurationError || error instanceof BridgeCommandError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(BAD_CONFIGURATION);
    }
    throw error;
  }
  const { config, tokens, profile, argv } = configured;
  pinClock(config.clockEpoch);
  if (profile !== undefined && tokens === undefined) {
    log(`conformance profile without ${BEARER_TOKENS_FILE}: no bearer token is asked for; every request is principal "${CONFORMANCE_PRINCIPAL}"`);
  }
  serveHttp(
    {
      config,
      tokens,
      ...(profile === undefined ? {} : { profile }),
      unguarded,
      bridgeArgv: argv,
      bridgeEnv: bridgeEnvironment(process.env),
      serverInfo: { name: SERVER_NAME, version: SERVER_VERSION },
      log,
      exit: (status) => process.exit(status),
    },
    port,
  ).then(
    (running) => {
      const stop = (): void => void running.close().then(() => process.exit(0));
      // Before the URL is out: whoever reads it may send SIGTERM at once, and that must already mean a clean stop.
      process.on('SIGTERM', stop);
      process.on('SIGINT', stop);
      // The lab finds the server by matching `serving (http://127\.0\.0\.1:[0-9]+/mcp)` in this stderr line: keep
      // that form. This runs once the socket listens (serveHttp resolves in listen's callback), and on Linux a write
      // to stderr (a pipe or a file) is synchronous, so the line is out before anything else happens.
      process.stderr.write(`serving ${running.url}\n`);
    },
    (error: unknown) => {
      log(`cannot listen on 127.0.0.1:${port}: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    },
  );
}

// `--conformance` and `--unguarded` may stand anywhere; the first only ever adds to HTTP mode, and the control serves
// no conformance fixtures (the suite scores the guarded server).
const args = process.argv.slice(2);
const conformance = args.includes('--conformance');
const unguarded = args.includes('--unguarded');
const mode = args.filter((arg) => arg !== '--conformance' && arg !== '--unguarded');
if (conformance && mode[0] !== '--http') {
  process.stderr.write('--conformance needs --http\n');
  process.exit(BAD_CONFIGURATION);
}
if (conformance && unguarded) {
  process.stderr.write('--unguarded serves the control, which has no conformance fixtures: use one or the other\n');
  process.exit(BAD_CONFIGURATION);
}
if (mode[0] === '--http') void mainHttp(mode[1], conformance, unguarded);
else if (mode.length > 0) {
  process.stderr.write(`unknown argument ${JSON.stringify(mode[0])}: expected --http PORT, --conformance or --unguarded\n`);
  process.exit(BAD_CONFIGURATION);
} else main(unguarded);
