/**
 * The compiled fingerprint CLI (dist/fingerprint-cli.js), run as a child process.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

// Compiled to build-test/test/fingerprint-cli.test.js; the CLI is dist/fingerprint-cli.js.
const CLI = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist', 'fingerprint-cli.js');
const KEY_VARIABLE = 'CONTINUATION_REPLAY_FINGERPRINT_KEY_HEX';
const TEST_KEY_HEX = '746573742d6f6e6c792d63726f73732d6c616e67756167652d6b65792d333262';

const VECTOR_00_DIGEST = '8053811d58bacfa928adfe862a3e1bda8040d18feef86b1b6eca9cd807c2cd97';
const VECTOR_00_LINE =
  '{"principal":"alice","tool_id":"create_issue","tool_version":"1.0","arguments":{"title":"spec"},' +
  '"continuation_state":"awaiting-body","input_responses":{"body":{"action":"accept","content":{"body":"alpha"}}}}';
/** Vector 01_identical_retry; its digest under the test key is the one the shared vector file expects. */
const VECTOR_01_LINE =
  '{"principal":"alice","tool_id":"create_issue","tool_version":"1.0","arguments":{"title":"spec"},' +
  '"continuation_state":"sealed-v1","input_responses":{"body":{"action":"accept","content":{"body":"alpha"}}}}';
const VECTOR_FILE = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'vectors', 'fingerprint_vectors.json');
const VECTOR_01_DIGEST = (JSON.parse(readFileSync(VECTOR_FILE, 'utf8')) as { expected: { digests: Record<string, string> } })
  .expected.digests['01_identical_retry'] as string;

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

function run(input: string | Buffer, options: { key?: string | null; args?: string[] } = {}): Run {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env[KEY_VARIABLE];
  const key = options.key === undefined ? TEST_KEY_HEX : options.key;
  if (key !== null) env[KEY_VARIABLE] = key;
  const result = spawnSync(process.execPath, [CLI, ...(options.args ?? [])], {
    input,
    env,
    encoding: 'utf8',
    timeout: 30_000,
  });
  assert.equal(result.error, undefined, `spawn failed: ${String(result.error)}`);
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function badLine(reason: string): string {
  return `{"principal":"alice","tool_id":"t","tool_version":"1","arguments":${reason}}`;
}

describe('fingerprint CLI', () => {
  test('the compiled CLI exists', () => {
    assert.ok(existsSync(CLI), `${CLI} is missing; run npm run build`);
  });

  test('acceptance: the vector-00 request with the test key prints the worked-example digest', () => {
    const result = run(`${VECTOR_00_LINE}\n`);
    assert.equal(result.stdout, `${VECTOR_00_DIGEST}\n`);
    assert.equal(result.stderr, '');
    assert.equal(result.status, 0);
  });

  test('one digest per line, in order', () => {
    const result = run(`${VECTOR_00_LINE}\n${VECTOR_01_LINE}\n${VECTOR_00_LINE}\n`);
    assert.equal(result.stdout, `${VECTOR_00_DIGEST}\n${VECTOR_01_DIGEST}\n${VECTOR_00_DIGEST}\n`);
    assert.equal(result.status, 0);
  });

  test('named lines print name<TAB>digest, and plain and named lines mix', () => {
    const input = [
      `{"name":"00_control_single_round","request":${VECTOR_00_LINE}}`,
      VECTOR_01_LINE,
      `{"request":${VECTOR_01_LINE},"name":"é 😀"}`,
    ].join('\n');
    const result = run(`${input}\n`);
    assert.equal(
      result.stdout,
      `00_control_single_round\t${VECTOR_00_DIGEST}\n${VECTOR_01_DIGEST}\né 😀\t${VECTOR_01_DIGEST}\n`,
    );
    assert.equal(result.stderr, '');
    assert.equal(result.status, 0);
  });

  test('blank lines (empty, spaces, tabs, CR) are skipped', () => {
    const result = run(`\n   \n${VECTOR_00_LINE}\n\t\r\n\r\n${VECTOR_01_LINE}\n\n`);
    assert.equal(result.stdout, `${VECTOR_00_DIGEST}\n${VECTOR_01_DIGEST}\n`);
    assert.equal(result.status, 0);
  });

  test('CRLF line endings are accepted', () => {
    const result = run(`${VECTOR_00_LINE}\r\n${VECTOR_01_LINE}\r\n`);
    assert.equal(result.stdout, `${VECTOR_00_DIGEST}\n${VECTOR_01_DIGEST}\n`);
    assert.equal(result.status, 0);
  });

  test('a last line without a trailing newline is processed', () => {
    const result = run(`${VECTOR_01_LINE}\n${VECTOR_00_LINE}`);
    assert.equal(result.stdout, `${VECTOR_01_DIGEST}\n${VECTOR_00_DIGEST}\n`);
    assert.equal(result.status, 0);
  });

  test('empty stdin prints nothing and exits 0', () => {
    const result = run('');
    assert.equal(result.stdout, '');
    assert.equal(result.stderr, '');
    assert.equal(result.status, 0);
  });

  test('only blank lines print nothing and exit 0', () => {
    const result = run('\n \n\t\n');
    assert.equal(result.stdout, '');
    assert.equal(result.status, 0);
  });

  test('a bad line 3 stops with "line 3: <reason>" and exit 2; earlier digests are printed, later lines are not', () => {
    const result = run(`${VECTOR_00_LINE}\n${VECTOR_01_LINE}\nxyz\n${VECTOR_00_LINE}\n`);
    assert.equal(result.stdout, `${VECTOR_00_DIGEST}\n${VECTOR_01_DIGEST}\n`);
    assert.ok(result.stderr.startsWith('line 3: '), result.stderr);
    assert.equal(result.stderr, 'line 3: invalid JSON at offset 0: unexpected character "x"\n');
    assert.equal(result.status, 2);
  });

  test('blank lines count in line numbers', () => {
    const result = run(`\n${VECTOR_00_LINE}\n\n[]\n`);
    assert.equal(result.stdout, `${VECTOR_00_DIGEST}\n`);
    assert.equal(result.stderr, 'line 4: a line must hold a JSON object\n');
    assert.equal(result.status, 2);
  });

  test('a line whose arguments are not an object exits 2', () => {
    for (const args of ['[]', '"x"', 'null', '1.5']) {
      const result = run(`${badLine(args)}\n`);
      assert.equal(result.stdout, '', args);
      assert.equal(result.stderr, 'line 1: $.arguments: must be a JSON object\n', args);
      assert.equal(result.status, 2, args);
    }
  });

  test('a fractional number exits 2 with its path', () => {
    const result = run(`${badLine('{"n":1.5}')}\n`);
    assert.equal(result.stdout, '');
    assert.equal(result.stderr, 'line 1: $.arguments.n: number must be an integer in the interoperable safe range\n');
    assert.equal(result.status, 2);
  });

  test('a number beyond double precision is rejected, not rounded', () => {
    const result = run(`${badLine('{"n":9007199254740993}')}\n${badLine('{"n":1.0000000000000000001}')}\n`, {
      args: ['--keep-going'],
    });
    assert.equal(
      result.stderr,
      'line 1: $.arguments.n: integer is outside the interoperable safe range\n' +
        'line 2: $.arguments.n: number must be an integer in the interoperable safe range\n',
    );
    assert.equal(result.status, 2);
  });

  test('a lone surrogate exits 2 with a message naming the surrogate', () => {
    const result = run(`${badLine('{"bad":"\\ud800"}')}\n`);
    assert.equal(result.stdout, '');
    assert.equal(result.stderr, 'line 1: $.arguments.bad: unpaired UTF-16 surrogate is not valid Unicode\n');
    assert.equal(result.status, 2);
  });

  test('a lone surrogate in an argument key exits 2 naming the object that holds it', () => {
    const result = run(`${badLine('{"ok":{"\\udc00":1}}')}\n`);
    assert.equal(result.stdout, '');
    assert.equal(
      result.stderr,
      'line 1: $.arguments.ok: object key with an unpaired UTF-16 surrogate is not valid Unicode\n',
    );
    assert.equal(result.status, 2);
  });

  test('an unknown member exits 2', () => {
    const result = run(`{"principal":"a","tool_id":"t","tool_version":"1","arguments":{},"extra":1}\n`);
    assert.equal(result.stderr, 'line 1: $.extra: unknown LogicalRequest member\n');
    assert.equal(result.status, 2);
  });

  test('invalid UTF-8 bytes inside a string give "line 1: invalid UTF-8"', () => {
    const input = Buffer.concat([
      Buffer.from('{"principal":"', 'utf8'),
      Buffer.from([0xff]),
      Buffer.from('","tool_id":"t","tool_version":"1","arguments":{}}\n', 'utf8'),
    ]);
    const result = run(input);
    assert.equal(result.stdout, '');
    assert.equal(result.stderr, 'line 1: invalid UTF-8\n');
    assert.equal(result.status, 2);
  });

  test('an encoded surrogate (CESU-style ED A0 80) and a truncated sequence are invalid UTF-8', () => {
    for (const bytes of [[0xed, 0xa0, 0x80], [0xc3], [0xc0, 0xaf]]) {
      const input = Buffer.concat([
        Buffer.from(`${VECTOR_00_LINE}\n{"name":"`, 'utf8'),
        Buffer.from(bytes),
        Buffer.from(`","request":${VECTOR_00_LINE}}\n`, 'utf8'),
      ]);
      const result = run(input);
      assert.equal(result.stdout, `${VECTOR_00_DIGEST}\n`, bytes.join(','));
      assert.equal(result.stderr, 'line 2: invalid UTF-8\n', bytes.join(','));
      assert.equal(result.status, 2);
    }
  });

  test('a UTF-8 byte order mark is not stripped: the line is not strict JSON', () => {
    const input = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`${VECTOR_00_LINE}\n`)]);
    const result = run(input);
    assert.equal(result.stdout, '');
    assert.ok(result.stderr.startsWith('line 1: invalid JSON at offset 0: unexpected character'), result.stderr);
    assert.equal(result.status, 2);
  });

  test('valid multi-byte UTF-8 gives the same digest as the \\u-escaped form', () => {
    const raw = run(`${badLine('{"t":"é😀"}')}\n`);
    const escaped = run(`${badLine('{"t":"\\u00e9\\ud83d\\ude00"}')}\n`);
    assert.equal(raw.status, 0);
    assert.match(raw.stdout, /^[0-9a-f]{64}\n$/);
    assert.equal(raw.stdout, escaped.stdout);
  });

  describe('the key', () => {
    const cases: ReadonlyArray<[string, string | null, string]> = [
      ['missing', null, `${KEY_VARIABLE} is not set\n`],
      ['empty', '', `${KEY_VARIABLE} is not set\n`],
      ['short (31 bytes)', TEST_KEY_HEX.slice(0, 62), `${KEY_VARIABLE} must contain at least 32 bytes\n`],
      ['odd length', TEST_KEY_HEX + 'a', `${KEY_VARIABLE} must be an even-length hexadecimal string\n`],
      ['non-hex', 'zz' + TEST_KEY_HEX.slice(2), `${KEY_VARIABLE} must be an even-length hexadecimal string\n`],
      ['0x-prefixed', '0x' + TEST_KEY_HEX, `${KEY_VARIABLE} must be an even-length hexadecimal string\n`],
      ['with spaces', ` ${TEST_KEY_HEX} `, `${KEY_VARIABLE} must be an even-length hexadecimal string\n`],
    ];
    for (const [name, key, message] of cases) {
      test(`${name} key: exit 2, stderr names the variable, the key value is never printed`, () => {
        const result = run(`${VECTOR_00_LINE}\n`, { key });
        assert.equal(result.status, 2);
        assert.equal(result.stdout, '');
        assert.equal(result.stderr, message);
        assert.ok(result.stderr.includes(KEY_VARIABLE));
        if (key !== null && key.trim() !== '') {
          assert.ok(!result.stderr.includes(key.trim()), 'stderr must not echo the key');
          assert.ok(!result.stderr.includes(TEST_KEY_HEX.slice(2, 40)), 'stderr must not echo the key');
        }
      });
    }

    test('a bad key fails even with empty stdin', () => {
      const result = run('', { key: TEST_KEY_HEX.slice(0, 62) });
      assert.equal(result.status, 2);
      assert.equal(result.stderr, `${KEY_VARIABLE} must contain at least 32 bytes\n`);
    });

    test('uppercase hex is the same key', () => {
      const result = run(`${VECTOR_00_LINE}\n`, { key: TEST_KEY_HEX.toUpperCase() });
      assert.equal(result.stdout, `${VECTOR_00_DIGEST}\n`);
      assert.equal(result.status, 0);
    });

    test('a different valid key gives a different digest', () => {
      const result = run(`${VECTOR_00_LINE}\n`, { key: '00'.repeat(32) });
      assert.equal(result.status, 0);
      assert.match(result.stdout, /^[0-9a-f]{64}\n$/);
      assert.notEqual(result.stdout, `${VECTOR_00_DIGEST}\n`);
    });

    test('a key longer than 32 bytes is accepted', () => {
      const result = run(`${VECTOR_00_LINE}\n`, { key: TEST_KEY_HEX + 'abcd' });
      assert.equal(result.status, 0);
      assert.match(result.stdout, /^[0-9a-f]{64}\n$/);
    });
  });

  describe('--keep-going', () => {
    test('bad lines print "!<reason>" in place, processing continues, exit 2 at the end', () => {
      const input = [VECTOR_00_LINE, 'xyz', '', badLine('{"n":1.5}'), VECTOR_01_LINE].join('\n');
      const result = run(`${input}\n`, { args: ['--keep-going'] });
      assert.equal(
        result.stdout,
        `${VECTOR_00_DIGEST}\n` +
          '!invalid JSON at offset 0: unexpected character "x"\n' +
          '!$.arguments.n: number must be an integer in the interoperable safe range\n' +
          `${VECTOR_01_DIGEST}\n`,
      );
      assert.equal(
        result.stderr,
        'line 2: invalid JSON at offset 0: unexpected character "x"\n' +
          'line 4: $.arguments.n: number must be an integer in the interoperable safe range\n',
      );
      assert.equal(result.status, 2);
    });

    test('a named bad line prints name<TAB>!<reason>', () => {
      const input = `{"name":"bad one","request":${badLine('[]')}}\n{"name":"good","request":${VECTOR_00_LINE}}\n`;
      const result = run(input, { args: ['--keep-going'] });
      assert.equal(result.stdout, `bad one\t!$.arguments: must be a JSON object\ngood\t${VECTOR_00_DIGEST}\n`);
      assert.equal(result.stderr, 'line 1: $.arguments: must be a JSON object\n');
      assert.equal(result.status, 2);
    });

    test('a bad name is reported without a name', () => {
      const result = run(`{"name":"a\\tb","request":${VECTOR_00_LINE}}\n`, { args: ['--keep-going'] });
      assert.equal(result.stdout, '!$.name: must be a string without control characters\n');
      assert.equal(result.status, 2);
    });

    test('invalid UTF-8 prints "!invalid UTF-8"', () => {
      const input = Buffer.concat([Buffer.from('"'), Buffer.from([0xff]), Buffer.from(`"\n${VECTOR_00_LINE}\n`)]);
      const result = run(input, { args: ['--keep-going'] });
      assert.equal(result.stdout, `!invalid UTF-8\n${VECTOR_00_DIGEST}\n`);
      assert.equal(result.stderr, 'line 1: invalid UTF-8\n');
      assert.equal(result.status, 2);
    });

    test('with only good lines it exits 0', () => {
      const result = run(`${VECTOR_00_LINE}\n\n${VECTOR_01_LINE}\n`, { args: ['--keep-going'] });
      assert.equal(result.stdout, `${VECTOR_00_DIGEST}\n${VECTOR_01_DIGEST}\n`);
      assert.equal(result.stderr, '');
      assert.equal(result.status, 0);
    });

    test('a bad last line without a trailing newline is reported', () => {
      const result = run(`${VECTOR_00_LINE}\n{`, { args: ['--keep-going'] });
      assert.equal(result.stdout, `${VECTOR_00_DIGEST}\n!invalid JSON at offset 1: expected a string key\n`);
      assert.equal(result.stderr, 'line 2: invalid JSON at offset 1: expected a string key\n');
      assert.equal(result.status, 2);
    });
  });

  test('a bad last line without a trailing newline stops with exit 2', () => {
    const result = run(`${VECTOR_00_LINE}\n{`);
    assert.equal(result.stdout, `${VECTOR_00_DIGEST}\n`);
    assert.equal(result.stderr, 'line 2: invalid JSON at offset 1: expected a string key\n');
    assert.equal(result.status, 2);
  });

  test('an unknown argument exits 2 and prints no digest', () => {
    for (const args of [['--bogus'], ['--keep-going', 'extra'], ['-k']]) {
      const result = run(`${VECTOR_00_LINE}\n`, { args });
      assert.equal(result.status, 2, args.join(' '));
      assert.equal(result.stdout, '', args.join(' '));
      assert.ok(result.stderr.includes('unknown argument'), result.stderr);
    }
  });

  test('many lines (more than one stdin chunk) all get digests', () => {
    const count = 3000;
    const input = `${VECTOR_00_LINE}\n`.repeat(count);
    assert.ok(input.length > 65536);
    const result = run(input);
    assert.equal(result.status, 0);
    assert.equal(result.stdout, `${VECTOR_00_DIGEST}\n`.repeat(count));
  });
});
