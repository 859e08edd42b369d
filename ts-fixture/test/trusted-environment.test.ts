/**
 * The fixture's WIRE_* validation must accept and refuse exactly what TrustedEnvironment.java does, with the same
 * messages: both read the cases of vectors/rules/trusted-environment.json. This file adds what only the fixture has.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  AUTHORITY_TTL,
  BACKEND_ID,
  CLOCK_EPOCH,
  ConfigurationError,
  FAULT,
  FINGERPRINT_KEY_HEX,
  type FixtureConfig,
  LAB_FAULTS,
  PRINCIPAL,
  readConfig,
  REPLAY_RETENTION_TTL,
  REQUEST_STATE_TTL,
  SERVER_DB,
  STATE_KEY_HEX,
} from '../src/trusted-environment.js';
import { loadRuleTable } from './rule-table.js';

const TABLE = loadRuleTable('trusted-environment.json');

function base(): NodeJS.ProcessEnv {
  return { ...(TABLE.root['base'] as Record<string, string>) };
}

/** What `variable` reads as: the string, the number of seconds, the key as lowercase hex, the fault or null. */
function read(config: FixtureConfig, variable: string): unknown {
  switch (variable) {
    case SERVER_DB:
      return config.database;
    case BACKEND_ID:
      return config.backendId;
    case PRINCIPAL:
      return config.principal;
    case CLOCK_EPOCH:
      return config.clockEpoch;
    case AUTHORITY_TTL:
      return config.authorityTtl;
    case REPLAY_RETENTION_TTL:
      return config.replayRetentionTtl;
    case REQUEST_STATE_TTL:
      return config.requestStateTtl;
    case STATE_KEY_HEX:
      return Buffer.from(config.stateKey).toString('hex');
    case FINGERPRINT_KEY_HEX:
      return Buffer.from(config.fingerprintKey).toString('hex');
    case FAULT:
      return config.fault;
    default:
      throw new Error(`no such variable in the table's format: ${variable}`);
  }
}

describe('trusted environment: the shared table', () => {
  for (const rule of TABLE.cases) {
    test(rule.name, () => {
      const variable = rule.row['variable'] as string;
      const env = base();
      if (rule.row['unset'] === true) delete env[variable];
      else env[variable] = rule.row['value'] as string;
      if ('accepted' in rule.expected) {
        assert.equal(read(readConfig(env), variable), rule.expected['accepted']);
      } else {
        assert.throws(
          () => readConfig(env),
          (error: unknown) => {
            assert.ok(error instanceof ConfigurationError, String(error));
            assert.equal(error.message, rule.expected['error']);
            return true;
          },
        );
      }
    });
  }
});

describe('trusted environment', () => {
  test('the table accepts every lab fault', () => {
    const accepted = TABLE.cases
      .filter((rule) => rule.row['variable'] === FAULT && 'accepted' in rule.expected)
      .map((rule) => rule.expected['accepted']);
    for (const fault of LAB_FAULTS) assert.ok(accepted.includes(fault), fault);
  });

  test('the first bad variable in the fixed order is the one reported', () => {
    const env = base();
    delete env['WIRE_PRINCIPAL'];
    env['WIRE_CLOCK_EPOCH'] = 'soon';
    assert.throws(() => readConfig(env), { message: 'WIRE_PRINCIPAL is required' });
  });

  test('with WIRE_LEDGER_URL the fixture needs no WIRE_SERVER_DB: the bridge opens the PostgreSQL ledger', () => {
    const env = base();
    delete env['WIRE_SERVER_DB'];
    assert.throws(() => readConfig(env), { message: 'WIRE_SERVER_DB is required' });
    env['WIRE_LEDGER_URL'] = 'jdbc:postgresql://127.0.0.1:5432/ledgers';
    assert.equal(readConfig(env).database, '');
    env['WIRE_LEDGER_URL'] = '';
    assert.throws(() => readConfig(env), { message: 'WIRE_SERVER_DB is required' });
  });
});
