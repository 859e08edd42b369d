import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { bridgeCommand, bridgeEnvironment, CASE_JVM_OPTIONS, defaultBridgeCommand, STDIO_JVM_OPTIONS } from '../src/bridge-command.js';

// Compiled to build-test/test/; the shared rule tables live in <repo>/vectors/rules/.
const RULES = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'vectors', 'rules');
const RULE_TABLE = resolve(RULES, 'stdio-jvm-options.json');
const OPTIONS = [...STDIO_JVM_OPTIONS, ...CASE_JVM_OPTIONS];

describe('bridge command', () => {
  test('the stdout options are the shared rule table\'s, in its order', () => {
    const table = JSON.parse(readFileSync(RULE_TABLE, 'utf8')) as { options: string[] };
    assert.deepEqual([...STDIO_JVM_OPTIONS], table.options);
  });

  test('the options of a case\'s JVM are the shared rule table\'s, in its order', () => {
    const table = JSON.parse(readFileSync(resolve(RULES, 'case-jvm-options.json'), 'utf8')) as { options: string[] };
    assert.deepEqual([...CASE_JVM_OPTIONS], table.options);
  });

  test('the default is java <stdout options> <case options> -jar <repo>/bridge/target/bridge.jar, java from JAVA_HOME when set', () => {
    assert.deepEqual(defaultBridgeCommand('/repo', {}), ['java', ...OPTIONS, '-jar', '/repo/bridge/target/bridge.jar']);
    assert.deepEqual(defaultBridgeCommand('/repo', { JAVA_HOME: '/opt/jdk' }), [
      '/opt/jdk/bin/java',
      ...OPTIONS,
      '-jar',
      '/repo/bridge/target/bridge.jar',
    ]);
    assert.deepEqual(bridgeCommand('/repo', { LAB_BRIDGE_COMMAND: '' }), [
      'java',
      ...OPTIONS,
      '-jar',
      '/repo/bridge/target/bridge.jar',
    ]);
  });

  test('LAB_BRIDGE_COMMAND is a JSON array of argv strings', () => {
    assert.deepEqual(bridgeCommand('/repo', { LAB_BRIDGE_COMMAND: '["/usr/bin/java","-Xmx64m","-jar","b.jar"]' }), [
      '/usr/bin/java',
      '-Xmx64m',
      '-jar',
      'b.jar',
    ]);
    for (const bad of ['java -jar b.jar', '[]', '["java", 1]', '{"argv":["java"]}', '[""]', '"java"']) {
      assert.throws(() => bridgeCommand('/repo', { LAB_BRIDGE_COMMAND: bad }), {
        message: 'LAB_BRIDGE_COMMAND must be a JSON array of strings',
      });
    }
  });

  test('the child gets the PostgreSQL ledger variables, the password file or the password among them', () => {
    const ledger = {
      WIRE_LEDGER_URL: 'jdbc:postgresql://127.0.0.1:5432/ledgers?currentSchema=a',
      WIRE_LEDGER_USER: 'lab',
      WIRE_LEDGER_PASSWORD_FILE: '/tmp/p',
      WIRE_LEDGER_PASSWORD: 'x'.repeat(32),
    };
    assert.deepEqual(bridgeEnvironment({ ...ledger, WIRE_STATE_KEY_HEX: 'secret' }), ledger);
  });

  test('the child environment is an allowlist without the state key or the TTLs', () => {
    const env = bridgeEnvironment({
      PATH: '/bin',
      HOME: '/home/a',
      JAVA_HOME: '/opt/jdk',
      LANG: 'C.UTF-8',
      WIRE_SERVER_DB: '/tmp/s.db',
      WIRE_BACKEND_ID: 'sqlite:x',
      WIRE_PRINCIPAL: 'alice',
      WIRE_CLOCK_EPOCH: '1',
      WIRE_FINGERPRINT_KEY_HEX: 'aa',
      WIRE_FAULT: 'exit-after-ledger-insert',
      WIRE_STATE_KEY_HEX: 'secret',
      WIRE_AUTHORITY_TTL: '300',
      WIRE_REPLAY_RETENTION_TTL: '360',
      WIRE_REQUEST_STATE_TTL: '600',
      AWS_SECRET_ACCESS_KEY: 'nope',
      NODE_OPTIONS: '--inspect',
    });
    assert.deepEqual(Object.keys(env).sort(), [
      'HOME',
      'JAVA_HOME',
      'LANG',
      'PATH',
      'WIRE_BACKEND_ID',
      'WIRE_CLOCK_EPOCH',
      'WIRE_FAULT',
      'WIRE_FINGERPRINT_KEY_HEX',
      'WIRE_PRINCIPAL',
      'WIRE_SERVER_DB',
    ]);
  });
});
