/**
 * The shared rule tables (<repo>/vectors/rules/*.json) as the TypeScript tests read them: the twin of
 * lab.continuationreplay.vectors.RuleTable, with the same format rules. A case has a unique name and either `expect`
 * (both languages) or `expect_by_language` ({java, typescript}, two different verdicts) with a `difference` saying
 * why; `expand` maps a placeholder to {repeat, times}, and every string of the case equal to it stands for the text
 * repeated that many times. A `note` is prose for readers.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';

// Compiled to build-test/test/; the shared rule tables live in <repo>/vectors/rules/.
const RULES = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'vectors', 'rules');

export interface RuleCase {
  readonly name: string;
  /** The case with its placeholders expanded. */
  readonly row: Record<string, unknown>;
  /** This language's verdict. */
  readonly expected: Record<string, unknown>;
  readonly difference: string | undefined;
}

export interface RuleTable {
  readonly file: string;
  readonly root: Record<string, unknown>;
  readonly cases: readonly RuleCase[];
}

type Expansions = Record<string, { repeat: string; times: number }>;

function expand(value: unknown, expansions: Expansions): unknown {
  if (typeof value === 'string') {
    const how = Object.hasOwn(expansions, value) ? expansions[value] : undefined;
    return how === undefined ? value : how.repeat.repeat(how.times);
  }
  if (Array.isArray(value)) return value.map((item) => expand(item, expansions));
  if (value !== null && typeof value === 'object') {
    // fromEntries defines own members, so a "__proto__" member stays a member.
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, expand(v, expansions)]));
  }
  return value;
}

function verdict(file: string, name: string, row: Record<string, unknown>): Record<string, unknown> {
  const common = row['expect'];
  const each = row['expect_by_language'] as Record<string, unknown> | undefined;
  const difference = row['difference'];
  if ((common === undefined) === (each === undefined)) {
    throw new Error(`${file}: case "${name}" needs exactly one of expect, expect_by_language`);
  }
  if (common !== undefined) {
    if (difference !== undefined) throw new Error(`${file}: case "${name}" has a difference but one verdict`);
    return common as Record<string, unknown>;
  }
  const java = each?.['java'];
  const typescript = each?.['typescript'];
  if (java === undefined || typescript === undefined || Object.keys(each ?? {}).length !== 2) {
    throw new Error(`${file}: case "${name}" needs exactly a java and a typescript verdict`);
  }
  if (isDeepStrictEqual(java, typescript)) {
    throw new Error(`${file}: case "${name}" gives both languages one verdict; use expect`);
  }
  if (typeof difference !== 'string' || difference.trim() === '') {
    throw new Error(`${file}: case "${name}" must say in "difference" why the languages differ`);
  }
  return typescript as Record<string, unknown>;
}

/** Reads vectors/rules/<file> and every case as TypeScript must see it. */
export function loadRuleTable(file: string): RuleTable {
  const path = resolve(RULES, file);
  const root = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  // Read on use, as in Java: a table of another shape (stdio-jvm-options.json) has no cases.
  return {
    file: path,
    root,
    get cases() {
      return ruleCases(path, root);
    },
  };
}

export function ruleCases(file: string, root: Record<string, unknown>): RuleCase[] {
  const rows = root['cases'];
  if (!Array.isArray(rows) || rows.length === 0) throw new Error(`${file}: "cases" must be a non-empty array`);
  const names = new Set<string>();
  return rows.map((raw: Record<string, unknown>) => {
    const name = raw['name'];
    if (typeof name !== 'string' || name === '' || names.has(name)) {
      throw new Error(`${file}: every case needs a name of its own, not "${String(name)}"`);
    }
    names.add(name);
    const expansions = raw['expand'] as Expansions | undefined;
    const row =
      expansions === undefined
        ? raw
        : Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, k === 'expand' ? v : expand(v, expansions)]));
    const difference = raw['difference'];
    return { name, row, expected: verdict(file, name, row), difference: typeof difference === 'string' ? difference : undefined };
  });
}
