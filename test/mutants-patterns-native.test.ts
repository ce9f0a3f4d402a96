import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { compilePattern } from '../src/schema/patterns.js';

// The linear-time matcher against the native engine, on the same patterns and strings: every
// answer the same (the matcher may refuse to answer only for the syntax it names, tested elsewhere).
const table = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'fixtures', 'patterns', 'differential.json'), 'utf8')) as Record<'corpus' | 'crafted' | 'legacy' | 'samples', string[]>;
const seed = Number(process.env['FC_SEED'] ?? 20261203);
const numRuns = Number(process.env['FC_RUNS'] ?? 300);
/** Characters the patterns above distinguish: word and non-word (each range's neighbours too), digits, separators, astral and lone surrogates (each range's ends and neighbours). */
const ALPHABET = ['a', 'b', 'c', 'x', 'y', 'z', 'A', 'Z', 'T', '0', '1', '2', '9', '.', '-', '_', '@', ':', ',', '/', '+', '#', ' ', '\n', '\u2028', 'é', '😀', '😁', '\ud800', '\udc00', '\\', ']', '{', '}', '[', '`', '\ud7ff', '\udbff', '\udfff', '\ue000'];
const random = fc.array(fc.constantFrom(...ALPHABET), { maxLength: 24 }).map((chars) => chars.join(''));
/** Random strings, the samples (strings the corpus patterns accept and near misses), and samples cut or grown by a character. */
const text = fc.oneof(random, fc.constantFrom(...table.samples), fc.tuple(fc.constantFrom(...table.samples), fc.constantFrom(...ALPHABET), fc.nat(80)).map(([sample, char, at]) => sample.slice(0, at) + char + sample.slice(at + 1)));

function native(source: string): RegExp {
  try {
    return new RegExp(source, 'u');
  } catch {
    return new RegExp(source);
  }
}

describe.each(['corpus', 'crafted', 'legacy'] as const)('%s patterns', (group) => {
  test.each(table[group])('%s: the same answers as the native engine', (source) => {
    const pattern = compilePattern(source)!;
    const reference = native(source);
    expect(pattern.flags).toBe(reference.flags);
    expect(pattern.unsupported).toBeUndefined();
    fc.assert(
      // The backtracking reference is exponential on some crafted patterns: short strings keep it quick.
      fc.property(group === 'crafted' ? text.filter((sample) => sample.length <= 24) : text, (sample) => pattern.test(sample) === reference.test(sample)),
      { seed, numRuns },
    );
  });
});

test('the samples exercise both answers: most corpus patterns accept one of them and refuse another', () => {
  const both = table.corpus.filter((source) => {
    const answers = table.samples.map((sample) => compilePattern(source)!.test(sample));
    return answers.includes(true) && answers.includes(false);
  });
  expect(both.length).toBeGreaterThan(table.corpus.length * 0.6);
});
