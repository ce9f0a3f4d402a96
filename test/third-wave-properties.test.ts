/**
 * Properties of the third wave's syntax rules (fast-check, fixed seed as in
 * repair-properties.test.ts): a generated object followed by every engine's end tokens, and
 * inside every wrapper (a closed reasoning block, the Hermes `<tool_call>` wrapper, a bare `json`
 * tag line, a fence with end tokens after it), reads back to itself; the same object with every
 * quote escaped once too many reads back to itself, or is refused with both readings where the
 * reading of its quotes alone gives another value (and always reads back when its strings hold no
 * backslash); a token of those sequences cut short is never dropped.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, test, vi } from 'vitest';
import { ArgsParseError, coerceArgs, coerceArgsJson, parseArgs, stringifyArgs } from '../src/index.js';
import { ENGINE_ENDS } from '../src/json/tolerant/engines.js';
import { AmbiguousTextError } from '../src/json/tolerant/readings.js';
import { repairJsonText } from '../src/json/tolerant/repair.js';

const seed = Number(process.env['FC_SEED'] ?? 20261203);
const numRuns = Number(process.env['FC_RUNS'] ?? 200);

/** Arguments: an object of any JSON values. */
const objectArbitrary = fc.dictionary(fc.string(), fc.jsonValue());
const indent = fc.constantFrom(undefined, 0, 2, '\t');
/** White space between the arguments and each token. */
const blank = fc.constantFrom('', ' ', '\n', '\r\n', '\t \n');

/** Every sequence of end tokens of every engine. */
const SEQUENCES = ENGINE_ENDS.flatMap(({ engine, sequences }) => sequences.map((tokens) => ({ engine, tokens })));
const sequence = fc.constantFrom(...SEQUENCES);

/** What strict JSON reads `text` as, written again: the value a repair must give. */
const valueOf = (text: string): string => JSON.stringify(JSON.parse(text));

/** The wrappers a model's arguments come in, each with the rules that drop it. */
const WRAPPERS: readonly { readonly name: string; readonly wrap: (json: string, draft: string, gap: string) => string; readonly rules: readonly string[] }[] = [
  { name: 'a closed reasoning block', wrap: (json, draft, gap) => `<think>${draft}</think>${gap}${json}`, rules: ['reasoning-block'] },
  { name: 'the Hermes wrapper', wrap: (json, _draft, gap) => `<tool_call>${gap}${json}${gap}</tool_call>`, rules: ['call-wrapper'] },
  { name: 'a bare json tag line', wrap: (json) => `json\n${json}`, rules: ['language-tag'] },
  { name: 'reasoning, then the Hermes wrapper', wrap: (json, draft, gap) => `<think>${draft}</think>${gap}<tool_call>${json}</tool_call>`, rules: ['reasoning-block', 'call-wrapper'] },
  { name: 'the Hermes wrapper around a fence', wrap: (json, _draft, gap) => `<tool_call>${gap}\`\`\`json\n${json}\n\`\`\`${gap}</tool_call>`, rules: ['call-wrapper', 'code-fence'] },
];
const wrapper = fc.constantFrom(...WRAPPERS);

describe(`third-wave syntax properties (seed ${seed}, ${numRuns} runs each)`, () => {
  test("an object followed by any engine's end tokens reads back to itself, with or without a fence", () => {
    fc.assert(
      fc.property(objectArbitrary, indent, sequence, blank, fc.boolean(), (args, space, { tokens }, gap, fenced) => {
        const json = JSON.stringify(args, null, space);
        const body = fenced ? `\`\`\`json\n${json}\n\`\`\`` : json;
        const text = body + tokens.map((token) => gap + token).join('') + gap;
        const repaired = repairJsonText(text);
        expect(valueOf(repaired.text)).toBe(valueOf(json));
        expect(repaired.changes.map((change) => change.rule)).toEqual(fenced ? ['code-fence', 'end-tokens'] : ['end-tokens']);
        expect(valueOf(coerceArgsJson(text, { type: 'object' }, { lenient: true }))).toBe(valueOf(json));
      }),
      { seed, numRuns },
    );
  });

  test('an object inside every wrapper reads back to itself; the draft in a reasoning block is never read', () => {
    const draft = fc.jsonValue().map((value) => JSON.stringify(value)).filter((text) => !text.includes('</think>'));
    fc.assert(
      fc.property(objectArbitrary, indent, wrapper, draft, blank, (args, space, { wrap, rules }, reasoning, gap) => {
        const json = JSON.stringify(args, null, space);
        const repaired = repairJsonText(wrap(json, reasoning, gap));
        expect(valueOf(repaired.text)).toBe(valueOf(json));
        expect(repaired.changes.map((change) => change.rule)).toEqual(rules);
      }),
      { seed, numRuns },
    );
  });

  test('an object over-escaped once reads back to itself, or is refused with both readings where its quotes alone read otherwise', () => {
    fc.assert(
      fc.property(objectArbitrary.filter((args) => Object.keys(args).length > 0), indent, (args, space) => {
        const json = JSON.stringify(args, null, space);
        const over = JSON.stringify(json).slice(1, -1);
        try {
          const repaired = repairJsonText(over);
          expect(valueOf(repaired.text)).toBe(valueOf(json));
          expect(repaired.changes[0]!.rule).toBe('over-escaped');
        } catch (error) {
          expect(error).toBeInstanceOf(AmbiguousTextError);
          const [first, second] = (error as AmbiguousTextError).readings;
          expect(valueOf(first!)).toBe(valueOf(json));
          expect(valueOf(second!)).not.toBe(valueOf(json));
        }
      }),
      { seed, numRuns },
    );
  });

  test('an object whose strings hold no backslash, over-escaped once, always reads back to itself', () => {
    const plain = fc.string({ unit: fc.constantFrom(...'abc XYZ019.,:;{}[]#/<>|\'-_é中'.split('')) });
    const value = fc.oneof(plain, fc.integer(), fc.boolean(), fc.constant(null), fc.array(plain, { maxLength: 3 }));
    fc.assert(
      fc.property(fc.dictionary(plain, value, { minKeys: 1 }), indent, (args, space) => {
        const json = JSON.stringify(args, null, space);
        const repaired = repairJsonText(JSON.stringify(json).slice(1, -1));
        expect(valueOf(repaired.text)).toBe(valueOf(json));
      }),
      { seed, numRuns },
    );
  });

  test('a token of an end sequence cut short is refused, never dropped', () => {
    fc.assert(
      fc.property(objectArbitrary, sequence, fc.nat(), (args, { tokens }, cut) => {
        const last = tokens[tokens.length - 1]!;
        const partial = last.slice(0, 2 + (cut % (last.length - 2)));
        const text = JSON.stringify(args) + tokens.slice(0, -1).join('') + partial;
        expect(() => repairJsonText(text)).toThrow(ArgsParseError);
      }),
      { seed, numRuns },
    );
  });
});

test("docs/REPAIRS.md's table of engines is the code's: every engine, its source and its token sequences", async () => {
  // The table is a module constant: read on a fresh import, so a table built wrong is seen here.
  vi.resetModules();
  const { ENGINE_ENDS: engines } = await import('../src/json/tolerant/engines.js');
  const docs = readFileSync(join(import.meta.dirname, '..', 'docs', 'REPAIRS.md'), 'utf8');
  const lines = docs.slice(docs.indexOf('| engine | sequences dropped after the arguments |')).split('\n');
  const rows = lines.slice(2, lines.indexOf(''));
  expect(rows).toHaveLength(engines.length);
  /** Sequences in a stable order, to compare as sets. */
  const sorted = (sequences: readonly (readonly string[])[]): string[] => sequences.map((tokens) => JSON.stringify(tokens)).sort();
  for (const { engine, source, sequences } of engines) {
    const row = rows.find((line) => line.startsWith(`| ${engine} |`));
    expect(row, engine).toBeDefined();
    // Each engine's format is cited: a link, in the code and in the docs' row.
    expect(source, engine).toMatch(/^https:\/\/\S+/);
    expect(row).toContain(source.split(' ')[0]);
    // The docs' cell: sequences separated by commas, each its tokens in backticks (`|` escaped).
    const cell = row!.slice(`| ${engine} | `.length, row!.lastIndexOf(' | '));
    const documented = cell.split(', ').map((sequence) => [...sequence.matchAll(/`([^`]+)`/g)].map((match) => match[1]!.replaceAll('\\|', '|')));
    expect(sorted(sequences), engine).toEqual(sorted(documented));
  }
});

test('a container a shape rule reads is walked once, where its reading lands: no change is reported where it was', () => {
  const schema = {
    type: 'object',
    properties: {
      todos: { type: 'array', items: { type: 'object', properties: { title: { type: 'string' }, n: { type: 'integer' } }, required: ['title'] }, properties: { n: { type: 'integer' } } },
      limit: { type: 'integer', properties: { x: { type: 'integer' } } },
    },
  };
  const result = coerceArgs(parseArgs('{"todos": {"title": "a", "n": "5"}, "limit": ["7"]}'), schema, { lenient: true });
  expect(stringifyArgs(result.value)).toBe('{"todos":[{"title":"a","n":5}],"limit":7}');
  expect(result.changes.map(({ path, rule }) => `${rule}@${path}`)).toEqual(['wrap-in-array@/todos', 'string-to-integer@/todos/0/n', 'array-to-scalar@/limit', 'string-to-integer@/limit']);
  expect(result.refusals).toEqual([]);
});
