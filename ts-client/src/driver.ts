/**
 * `node dist/driver.js SCRIPT RECORDS`: the TypeScript client driver (docs/client-drivers.md).
 * Exit 0: every step attempted; 2: a script the driver cannot read (one stderr line, nothing started);
 * 1: a defect of the driver itself.
 */
import { readFileSync } from 'node:fs';
import { log } from './log.js';
import { RecordFile } from './records.js';
import { Run } from './run.js';
import { ScriptError, parseScript } from './script.js';

const STARTED_AT = performance.now();

/**
 * The SDK writes some notices with console.debug/log, which Node sends to stdout (listTools on a connection
 * without a tools capability, for one). Stdout is no part of the driver's contract, so everything goes to stderr.
 */
function consoleToStderr(): void {
  const toStderr = (...parts: unknown[]): void => console.error(...parts);
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
}

/** Read from the installed package, so a record names the SDK that really ran, not the one package.json asked for. */
function sdkVersion(): string {
  const entry = import.meta.resolve('@modelcontextprotocol/client');
  const manifest = JSON.parse(readFileSync(new URL('../package.json', entry), 'utf8')) as { version?: unknown };
  if (typeof manifest.version !== 'string') throw new Error('@modelcontextprotocol/client has no version');
  return manifest.version;
}

async function main(argv: readonly string[]): Promise<number> {
  if (argv.length !== 2) {
    process.stderr.write('usage: node dist/driver.js SCRIPT RECORDS\n');
    return 2;
  }
  const [scriptPath, recordsPath] = argv as [string, string];
  let text: string;
  try {
    text = readFileSync(scriptPath, 'utf8');
  } catch (e) {
    process.stderr.write(`script error: cannot read ${scriptPath} (${e instanceof Error ? e.message : String(e)})\n`);
    return 2;
  }
  let script;
  try {
    script = parseScript(text);
  } catch (e) {
    if (!(e instanceof ScriptError)) throw e;
    process.stderr.write(`${e.message}\n`);
    return 2;
  }
  const records = new RecordFile(recordsPath);
  records.probe();
  await new Run(script, records, sdkVersion(), STARTED_AT).play();
  return 0;
}

function defect(error: unknown): never {
  log(`driver defect: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exit(1);
}

consoleToStderr();
process.on('uncaughtException', defect);
process.on('unhandledRejection', defect);
main(process.argv.slice(2)).then((status) => process.exit(status), defect);
