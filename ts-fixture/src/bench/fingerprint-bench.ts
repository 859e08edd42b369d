/**
 * `lab bench` benchmark 4, TypeScript side: fingerprints per second of each request in a JSON Lines file
 * ({"name":…,"request":LogicalRequest}), and the bare cost under it, in the same node process: node:crypto's
 * HMAC-SHA256 of the two opaque fields' messages and SHA-256 of the canonical payload, over the same bytes,
 * precomputed, with the primitives the fingerprint itself uses (an HMAC key imported once with createSecretKey, and
 * the one-shot crypto.hash for SHA-256 where node has it).
 *
 *   CONTINUATION_REPLAY_FINGERPRINT_KEY_HEX=… node dist/bench/fingerprint-bench.js REQUESTS.jsonl [MILLIS]
 *
 * The floor is the least work any canonicaliser in node must do on top of the bare hashing: the runtime's own
 * JSON.stringify writing the payload from an object already in canonical member order (no check, no ordering, no
 * copy), hashed from the string as the fingerprint hashes it (which includes the UTF-8 encoding), plus the same two
 * HMACs of the precomputed opaque-field messages.
 *
 * Prints one JSON object: {"node": version, "results": [{name, digest, canonical_payload_bytes,
 * fingerprint_ns_per_op, bare_ns_per_op, floor_ns_per_op, fingerprint_ops, bare_ops, floor_ops, floor_rounds}]},
 * floor_rounds being the fingerprint/floor ratio of each of 5 interleaved rounds. The key is never printed.
 */
import { createHash, createHmac, createSecretKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { canonicalJson, FingerprintKey, OPAQUE_FIELDS, requestFingerprint, bindOpaqueField, sha256Hex } from '../fingerprint.js';
import { parseExactJson } from '../exact-json.js';
import { readNamedRequest } from '../logical-request.js';

/** Interleaved fingerprint/floor rounds behind row 4's ratio. */
const ROUNDS = 5;

interface Measured {
  nsPerOp: number;
  ops: number;
}

/** Runs `work` for `millis` after a warm-up of half that, in batches, and returns the mean cost per call. */
function measure(work: () => unknown, millis: number): Measured {
  let sink: unknown;
  const run = (budgetMs: number): Measured => {
    const start = process.hrtime.bigint();
    const budget = BigInt(Math.round(budgetMs * 1e6));
    let ops = 0;
    let elapsed = 0n;
    while (elapsed < budget) {
      for (let i = 0; i < 16; i++) sink = work();
      ops += 16;
      elapsed = process.hrtime.bigint() - start;
    }
    return { nsPerOp: Number(elapsed) / ops, ops };
  };
  run(millis / 2);
  const result = run(millis);
  if (sink === undefined) throw new Error('no result');
  return result;
}

function main(): void {
  const [file, millisArg] = process.argv.slice(2);
  const keyHex = process.env['CONTINUATION_REPLAY_FINGERPRINT_KEY_HEX'];
  if (file === undefined || keyHex === undefined || !/^[0-9a-fA-F]{64,}$/.test(keyHex)) {
    process.stderr.write('usage: CONTINUATION_REPLAY_FINGERPRINT_KEY_HEX=<hex> fingerprint-bench REQUESTS.jsonl [MILLIS]\n');
    process.exit(2);
  }
  const millis = millisArg === undefined ? 2000 : Number(millisArg);
  const keyBytes = Buffer.from(keyHex, 'hex');
  const key = FingerprintKey.of(keyBytes);
  const hmacKey = createSecretKey(keyBytes);
  const results = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const { name, request } = readNamedRequest(parseExactJson(line));
    const digest = requestFingerprint(key, request);
    const messages = OPAQUE_FIELDS.map((field) =>
      Buffer.concat([Buffer.from(field, 'utf8'), Buffer.of(0), Buffer.from(canonicalJson(request[field] ?? null), 'utf8')]),
    );
    const payload = Buffer.from(
      canonicalJson({
        principal: request.principal,
        tool_id: request.tool_id,
        tool_version: request.tool_version,
        arguments: request.arguments,
        continuation_state: bindOpaqueField(key, 'continuation_state', request.continuation_state),
        input_responses: bindOpaqueField(key, 'input_responses', request.input_responses),
      }),
      'utf8',
    );
    if (createHash('sha256').update(payload).digest('hex') !== digest) throw new Error(`${name}: bare bytes differ`);
    const fingerprintWork = (): unknown => requestFingerprint(key, request);
    const full = measure(fingerprintWork, millis);
    const bare = measure(() => {
      const a = createHmac('sha256', hmacKey).update(messages[0]!).digest('hex');
      const b = createHmac('sha256', hmacKey).update(messages[1]!).digest('hex');
      return [a, b, sha256Hex(payload)];
    }, millis);
    // JSON.parse of canonical text gives an object whose members enumerate in canonical order (the requests have
    // no array-index keys), so JSON.stringify of it writes the canonical payload as it is.
    const ordered: unknown = JSON.parse(payload.toString('utf8'));
    if (sha256Hex(JSON.stringify(ordered)) !== digest) throw new Error(`${name}: the floor's text is not the payload`);
    const floorWork = (): unknown => {
      const a = createHmac('sha256', hmacKey).update(messages[0]!).digest('hex');
      const b = createHmac('sha256', hmacKey).update(messages[1]!).digest('hex');
      return [a, b, sha256Hex(JSON.stringify(ordered))];
    };
    const floor = measure(floorWork, millis);
    // Row 4's ratio, as the other rows' are: fingerprint and floor timed in turn, round by round (the order flips),
    // so a drift of the machine lands on both; the bench takes the median round's.
    const floorRounds: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const fingerprintFirst = round % 2 === 0;
      const first = measure(fingerprintFirst ? fingerprintWork : floorWork, millis / ROUNDS).nsPerOp;
      const second = measure(fingerprintFirst ? floorWork : fingerprintWork, millis / ROUNDS).nsPerOp;
      floorRounds.push(fingerprintFirst ? first / second : second / first);
    }
    results.push({
      name,
      digest,
      canonical_payload_bytes: payload.length,
      fingerprint_ns_per_op: full.nsPerOp,
      fingerprint_ops: full.ops,
      bare_ns_per_op: bare.nsPerOp,
      bare_ops: bare.ops,
      floor_ns_per_op: floor.nsPerOp,
      floor_ops: floor.ops,
      floor_rounds: floorRounds,
    });
  }
  process.stdout.write(JSON.stringify({ node: process.version, results }) + '\n');
}

main();
