/**
 * The fixture's WIRE_* validation must accept and refuse exactly what TrustedEnvironment.java does, with the same
 * messages. The expected outcomes below were produced by running TrustedEnvironment itself on each value.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ConfigurationError, type FixtureConfig, readConfig } from '../src/trusted-environment.js';

const KEY = '8cac6b8c4ec375b861c294c1e49f902e5beb661a50b9cb3323c4ae30eb0d7dfc';

function base(): NodeJS.ProcessEnv {
  return {
    WIRE_SERVER_DB: '/tmp/x/store.sqlite3',
    WIRE_BACKEND_ID: 'sqlite:guarded-matrix',
    WIRE_PRINCIPAL: 'alice',
    WIRE_CLOCK_EPOCH: '1790035200',
    WIRE_AUTHORITY_TTL: '300',
    WIRE_REPLAY_RETENTION_TTL: '360',
    WIRE_REQUEST_STATE_TTL: '600',
    WIRE_STATE_KEY_HEX: KEY,
    WIRE_FINGERPRINT_KEY_HEX: KEY.toUpperCase(),
  };
}

function read(name: string, value: string | undefined): FixtureConfig {
  const env = base();
  if (value === undefined) delete env[name];
  else env[name] = value;
  return readConfig(env);
}

function refusal(name: string, value: string | undefined): string {
  try {
    read(name, value);
  } catch (error) {
    assert.ok(error instanceof ConfigurationError, String(error));
    return error.message;
  }
  return assert.fail(`${name}=${String(value)} was accepted`);
}

describe('trusted environment', () => {
  test('reads a complete environment', () => {
    const config = readConfig(base());
    assert.equal(config.database, '/tmp/x/store.sqlite3');
    assert.equal(config.backendId, 'sqlite:guarded-matrix');
    assert.equal(config.principal, 'alice');
    assert.equal(config.clockEpoch, 1790035200);
    assert.equal(config.authorityTtl, 300);
    assert.equal(config.replayRetentionTtl, 360);
    assert.equal(config.requestStateTtl, 600);
    assert.deepEqual(Buffer.from(config.stateKey), Buffer.from(KEY, 'hex'));
    assert.deepEqual(Buffer.from(config.fingerprintKey), Buffer.from(KEY, 'hex'));
    assert.equal(config.fault, null);
  });

  // TrustedEnvironmentTest's table, message for message.
  const refused: ReadonlyArray<[string, string | undefined, string]> = [
    ['WIRE_SERVER_DB', undefined, 'WIRE_SERVER_DB is required'],
    ['WIRE_BACKEND_ID', '', 'WIRE_BACKEND_ID is required'],
    ['WIRE_PRINCIPAL', undefined, 'WIRE_PRINCIPAL is required'],
    ['WIRE_CLOCK_EPOCH', undefined, 'WIRE_CLOCK_EPOCH is required'],
    ['WIRE_CLOCK_EPOCH', 'soon', 'WIRE_CLOCK_EPOCH must be numeric'],
    ['WIRE_CLOCK_EPOCH', 'NaN', 'WIRE_CLOCK_EPOCH must be finite'],
    ['WIRE_CLOCK_EPOCH', 'Infinity', 'WIRE_CLOCK_EPOCH must be finite'],
    ['WIRE_CLOCK_EPOCH', '1790035200.5', 'WIRE_CLOCK_EPOCH must be a whole number of seconds'],
    ['WIRE_CLOCK_EPOCH', '-1', 'WIRE_CLOCK_EPOCH must not be negative'],
    ['WIRE_AUTHORITY_TTL', '0', 'WIRE_AUTHORITY_TTL must be positive'],
    ['WIRE_REPLAY_RETENTION_TTL', '-5', 'WIRE_REPLAY_RETENTION_TTL must be positive'],
    ['WIRE_REQUEST_STATE_TTL', 'x', 'WIRE_REQUEST_STATE_TTL must be numeric'],
    ['WIRE_REQUEST_STATE_TTL', '1e30', 'WIRE_REQUEST_STATE_TTL is too large'],
    ['WIRE_STATE_KEY_HEX', 'abc', 'WIRE_STATE_KEY_HEX must be hexadecimal'],
    ['WIRE_STATE_KEY_HEX', 'zz', 'WIRE_STATE_KEY_HEX must be hexadecimal'],
    ['WIRE_STATE_KEY_HEX', '00ff', 'WIRE_STATE_KEY_HEX must contain at least 32 bytes'],
    ['WIRE_FINGERPRINT_KEY_HEX', undefined, 'WIRE_FINGERPRINT_KEY_HEX is required'],
  ];
  for (const [name, value, message] of refused) {
    test(`${name}=${String(value)}: ${message}`, () => assert.equal(refusal(name, value), message));
  }

  // Edge spellings, each checked against java.math.BigDecimal through TrustedEnvironment.
  const numbers: ReadonlyArray<[string, number | string, number | string]> = [
    // value, clock outcome, TTL outcome (a number: accepted as that many seconds; a string: the refusal)
    [' 5 ', 5, 5],
    ['\t7\n', 7, 7],
    ['+5', 5, 5],
    ['1.', 1, 1],
    ['1.0', 1, 1],
    ['00012', 12, 12],
    ['1e3', 1000, 1000],
    ['1E+3', 1000, 1000],
    ['1e-0', 1, 1],
    ['1.5e1', 15, 15],
    ['5e0', 5, 5],
    ['-0', 0, 'must be positive'],
    ['0.0', 0, 'must be positive'],
    ['\u0663', 3, 3], // ARABIC-INDIC DIGIT THREE: Character.digit reads it
    ['\uff15', 5, 5], // FULLWIDTH DIGIT FIVE
    ['9007199254740991', 9007199254740991, 9007199254740991],
    ['9007199254740992', 'is too large', 'is too large'],
    ['.5', 'must be a whole number of seconds', 'must be a whole number of seconds'],
    ['15e-1', 'must be a whole number of seconds', 'must be a whole number of seconds'],
    ['0x10', 'must be numeric', 'must be numeric'],
    ['1_000', 'must be numeric', 'must be numeric'],
    ['5\u00a0', 'must be numeric', 'must be numeric'],
    ['1d', 'must be numeric', 'must be numeric'],
    ['1e+', 'must be numeric', 'must be numeric'],
    ['+', 'must be numeric', 'must be numeric'],
    ['-', 'must be numeric', 'must be numeric'],
    ['1..0', 'must be numeric', 'must be numeric'],
    ['1,0', 'must be numeric', 'must be numeric'],
    ['1e2147483648', 'must be numeric', 'must be numeric'],
    ['1e-2147483648', 'must be numeric', 'must be numeric'],
    ['Inf', 'must be finite', 'must be finite'],
    ['-inf', 'must be finite', 'must be finite'],
    ['nan', 'must be finite', 'must be finite'],
    ['', 'is required', 'is required'],
  ];
  for (const [value, clock, ttl] of numbers) {
    test(`numbers like BigDecimal: ${JSON.stringify(value)}`, () => {
      for (const [name, expected] of [
        ['WIRE_CLOCK_EPOCH', clock],
        ['WIRE_AUTHORITY_TTL', ttl],
      ] as const) {
        if (typeof expected === 'number') {
          const config = read(name, value);
          assert.equal(name === 'WIRE_CLOCK_EPOCH' ? config.clockEpoch : config.authorityTtl, expected);
        } else {
          assert.equal(refusal(name, value), `${name} ${expected}`);
        }
      }
    });
  }

  test('a huge exponent is decided without computing the number', () => {
    assert.equal(refusal('WIRE_AUTHORITY_TTL', '1e2147483647'), 'WIRE_AUTHORITY_TTL is too large');
    assert.equal(refusal('WIRE_AUTHORITY_TTL', '1e-2147483647'), 'WIRE_AUTHORITY_TTL must be a whole number of seconds');
    assert.equal(read('WIRE_AUTHORITY_TTL', `1${'0'.repeat(500)}e-498`).authorityTtl, 100);
  });

  test('every lab fault is accepted; anything else names the choices', () => {
    for (const fault of [
      'drop-after-commit',
      'exit-after-ledger-insert',
      'exit-after-issue-insert',
      'exit-after-partial-first-commit',
    ]) {
      assert.equal(read('WIRE_FAULT', fault).fault, fault);
    }
    assert.equal(read('WIRE_FAULT', '').fault, null);
    assert.equal(
      refusal('WIRE_FAULT', 'explode'),
      'WIRE_FAULT must be one of [drop-after-commit, exit-after-ledger-insert, exit-after-issue-insert, exit-after-partial-first-commit]',
    );
  });

  test('keys: uppercase hex is the same key, 31 bytes is short, and no message quotes the value', () => {
    const short = KEY.slice(0, 62);
    assert.equal(refusal('WIRE_STATE_KEY_HEX', short), 'WIRE_STATE_KEY_HEX must contain at least 32 bytes');
    assert.equal(refusal('WIRE_STATE_KEY_HEX', `0x${KEY}`), 'WIRE_STATE_KEY_HEX must be hexadecimal');
    assert.equal(refusal('WIRE_STATE_KEY_HEX', ` ${KEY}`), 'WIRE_STATE_KEY_HEX must be hexadecimal');
    assert.equal(refusal('WIRE_FINGERPRINT_KEY_HEX', `${KEY}é`), 'WIRE_FINGERPRINT_KEY_HEX must be hexadecimal');
    for (const [name, value] of [
      ['WIRE_STATE_KEY_HEX', short],
      ['WIRE_FINGERPRINT_KEY_HEX', `${KEY}g`],
    ] as const) {
      assert.ok(!refusal(name, value).includes(KEY.slice(0, 16)));
    }
  });

  test('the first bad variable in the fixed order is the one reported', () => {
    const env = base();
    delete env['WIRE_PRINCIPAL'];
    env['WIRE_CLOCK_EPOCH'] = 'soon';
    assert.throws(() => readConfig(env), { message: 'WIRE_PRINCIPAL is required' });
  });
});
