/**
 * Hostile schemas (issue #39): patterns that backtrack exponentially in a native engine, a
 * 100,000-member enum, 2,000 `anyOf` object branches, 10,000 declared names against hundreds of
 * unknown keys. Each with a call of about 10 KB, built here deterministically; `npm run bench`
 * times each (target: under 50 ms with the plan compiled), and test/hostile.test.ts runs the same
 * workloads in a child process under a generous wall-clock bound, so a return to exponential or
 * quadratic cost fails the suite.
 */
import { coerceArgsJson, findUndeclaredKeys, parseArgs, prepareToolCall, type CoerceOptions } from '../src/index.js';
import { renameUnambiguousKeys, validateArgs } from '../src/validate.js';
import type { BenchTools } from './repair.js';

/** A hostile schema with a call of about 10 KB, and the one operation each row times. */
export interface HostileWorkload {
  readonly name: string;
  readonly schema: Record<string, unknown>;
  readonly text: string;
  readonly options?: CoerceOptions;
  /**
   * Also timed through Ajv (`validateArgs`): only where what Ajv runs is ours (patterns). Ajv's
   * own cost on a wide `anyOf` or a huge `enum` grows with the schema (every branch, every member,
   * per value), as validation must: docs/BENCHMARKS.md gives it, without a target.
   */
  readonly validate?: boolean;
}

const TARGET_BYTES = 10_000;
const INT = { type: 'integer' };

/** Entries from `entry(i)` until the object's JSON text reaches about `TARGET_BYTES`. */
function objectOf(entry: (i: number) => [string, unknown]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  let bytes = 2;
  for (let i = 0; bytes < TARGET_BYTES; i++) {
    const [key, value] = entry(i);
    out[key] = value;
    bytes += JSON.stringify(key).length + JSON.stringify(value).length + 2;
  }
  return out;
}

/** Every value `1` written `1.0`, as a float64 pipeline sends integers. */
function floats(value: unknown): string {
  return JSON.stringify(value).replace(/:1(?=[,}\]])/g, ':1.0').replace(/,1(?=[,\]])/g, ',1.0').replace(/\[1(?=[,\]])/g, '[1.0');
}

/** The hostile workloads, each about 10 KB of arguments. */
export function hostileWorkloads(): HostileWorkload[] {
  // Keys of 25–33 characters that the patterns almost match: a native engine takes seconds to minutes on each.
  const patterns = {
    type: 'object',
    patternProperties: { '^((a+))+$': INT, '^(a|a?)+$': INT, '^(a|a)*$': INT, '^(.*a){12}$': INT },
    additionalProperties: { type: 'number' },
  };
  const patternArgs = objectOf((i) => [i % 4 === 0 ? 'b'.repeat(i) + 'a'.repeat(25 + (i % 9)) : 'a'.repeat(25 + (i % 9)) + '!' + i, 1]);
  const members = Array.from({ length: 100_000 }, (_, i) => `Member${i}`);
  const enumArgs = { v: Object.values(objectOf((i) => [String(i), i % 2 === 0 ? `member${i * 97}` : ` MEMBER${i * 89}x`])) };
  const branches = Array.from({ length: 2_000 }, (_, i) => ({
    type: 'object',
    properties: { kind: { const: `b${i}` }, [`n${i}`]: INT, label: { type: 'string' } },
    required: ['kind'],
  }));
  const anyOfArgs = { items: Object.values(objectOf((i) => [String(i), { kind: `b${(i * 37) % 2000}`, [`n${(i * 37) % 2000}`]: 1, [`x${i}`]: 1 }])) };
  const properties = Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`param_${i}`, { type: 'string' }]));
  const nameArgs = objectOf((i) => [i % 5 === 0 ? `PARAM-${i * 13}` : `arg_${i}x`, 'v']);
  return [
    { name: 'patternProperties that backtrack exponentially in a native engine', schema: patterns, text: floats(patternArgs), validate: true },
    { name: 'a 100,000-member enum, lenient enumCase', schema: { type: 'object', properties: { v: { type: 'array', items: { enum: members } } } }, text: JSON.stringify(enumArgs), options: { lenient: true } },
    { name: '2,000 anyOf object branches', schema: { type: 'object', properties: { items: { type: 'array', items: { anyOf: branches } } } }, text: floats(anyOfArgs) },
    { name: '2,000 anyOf object branches, lenient', schema: { type: 'object', properties: { items: { type: 'array', items: { anyOf: branches } } } }, text: floats(anyOfArgs), options: { lenient: true } },
    { name: '10,000 declared names, hundreds of unknown keys', schema: { type: 'object', properties, additionalProperties: false }, text: JSON.stringify(nameArgs) },
  ];
}

/** The operations a hostile workload goes through: the text path, and the scans of undeclared keys. */
export function hostileOperations({ schema, text, options, validate }: HostileWorkload): [task: string, run: () => unknown][] {
  const args = parseArgs(text);
  const operations: [string, () => unknown][] = [
    ['coerceArgsJson', () => coerceArgsJson(text, schema, options)],
    ['findUndeclaredKeys', () => findUndeclaredKeys(args, schema)],
    ['renameUnambiguousKeys', () => renameUnambiguousKeys(args, schema)],
    ['prepareToolCall, rejectUndeclared: the model message', () => prepareToolCall(text, schema, { ...options, rejectUndeclared: true })],
  ];
  if (validate === true) operations.push(['validateArgs (Ajv, patterns by the linear matcher)', () => validateArgs(args, schema)]);
  return operations;
}

/** One group per hostile workload; each operation under 50 ms once the plan is compiled. */
export async function hostileSchemas({ group, target, rowOf }: BenchTools): Promise<void> {
  for (const workload of hostileWorkloads()) {
    const operations = hostileOperations(workload);
    const groupName = `hostile: ${workload.name} (${workload.text.length.toLocaleString('en')} B)`;
    await group(groupName, operations);
    for (const [task] of operations) {
      const ms = rowOf(groupName, task).nsPerOp / 1e6;
      target(`8. hostile: ${workload.name}, ${task} under 50 ms`, `${ms.toFixed(2)} ms`, ms < 50);
    }
  }
}
