/**
 * Properties of syntax repair (fast-check, fixed seed as in properties.test.ts): valid JSON is
 * returned byte for byte, a Python repr repairs to its value, and every proper prefix of an
 * object's text is refused as cut off.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { ArgsParseError, coerceArgsJson, parseArgs, prepareToolCall, stringifyArgs } from '../src/index.js';
import { repairJsonText } from '../src/json/tolerant/repair.js';

const seed = Number(process.env['FC_SEED'] ?? 20261129);
const numRuns = Number(process.env['FC_RUNS'] ?? 300);

/** Arguments: an object (or, now and then, an array) of any JSON values. */
const argsArbitrary = fc.oneof(
  { arbitrary: fc.dictionary(fc.string(), fc.jsonValue()), weight: 4 },
  { arbitrary: fc.array(fc.jsonValue()), weight: 1 },
);
const indent = fc.constantFrom(undefined, 0, 2, '\t');

/** A Python-style string literal: single quotes unless the text has an apostrophe and no double quote. */
function pyString(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const char of text) {
    const code = char.charCodeAt(0);
    if (char === '\\' || char === quote) out += '\\' + char;
    else if (code < 0x20) out += '\\u' + code.toString(16).padStart(4, '0');
    else out += char;
  }
  return out + quote;
}

/** The Python repr of a JSON value: single-quoted strings, `True`/`False`/`None`, `, ` and `: `. */
function pyRepr(value: unknown): string {
  if (value === null) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number') return JSON.stringify(value);
  if (typeof value === 'string') return pyString(value);
  if (Array.isArray(value)) return '[' + value.map(pyRepr).join(', ') + ']';
  return '{' + Object.entries(value as Record<string, unknown>).map(([k, v]) => `${pyString(k)}: ${pyRepr(v)}`).join(', ') + '}';
}

describe(`syntax repair properties (seed ${seed}, ${numRuns} runs each)`, () => {
  test('valid JSON text comes back byte-identical in repair mode', () => {
    fc.assert(fc.property(argsArbitrary, indent, (args, space) => {
      const text = JSON.stringify(args, null, space);
      const repaired = repairJsonText(text);
      expect(repaired.text).toBe(text);
      expect(repaired.changes).toEqual([]);
      expect(coerceArgsJson(text, { type: ['object', 'array'] }, { lenient: true })).toBe(text);
      expect(prepareToolCall(text, { type: ['object', 'array'] }, { lenient: true }).json).toBe(text);
    }), { seed, numRuns });
  });

  test('the Python repr of any generated value repairs to that value', () => {
    fc.assert(fc.property(argsArbitrary, (args) => {
      const repr = pyRepr(args);
      expect(stringifyArgs(parseArgs(repr, { repair: true }))).toBe(JSON.stringify(args));
    }), { seed, numRuns });
  });

  test('an object with raw control characters inside its strings repairs to the escaped object', () => {
    const control = fc.string({ unit: fc.oneof(fc.integer({ min: 0, max: 0x1f }).map((code) => String.fromCharCode(code)), fc.constantFrom('a', ' ', '"', '\\', '\u00e9')), maxLength: 8 });
    /** JSON text with every string's control characters left raw (quotes and backslashes escaped). */
    const raw = (value: unknown): string => {
      if (typeof value === 'string') return `"${value.replace(/["\\]/g, '\\$&')}"`;
      if (Array.isArray(value)) return `[${value.map(raw).join(',')}]`;
      if (value !== null && typeof value === 'object') return `{${Object.entries(value).map(([k, v]) => `${raw(k)}: ${raw(v)}`).join(', ')}}`;
      return JSON.stringify(value);
    };
    const objects = fc.dictionary(control, fc.oneof(control, fc.array(control, { maxLength: 3 }), fc.integer()), { minKeys: 1, maxKeys: 4 });
    fc.assert(fc.property(objects, (args) => {
      const text = raw(args);
      const controls = /[\u0000-\u001f]/.test(text);
      const call = prepareToolCall(text, { type: 'object' }, { lenient: true });
      expect(call.ok).toBe(true);
      expect(call.json === text ? text : JSON.stringify(JSON.parse(call.json))).toBe(controls ? JSON.stringify(args) : text);
      expect(call.changes.map((change) => change.rule)).toEqual(controls ? ['control-character'] : []);
    }), { seed, numRuns });
  });

  test('every proper prefix of an object text is refused as cut off', () => {
    const objects = fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { minKeys: 1, maxKeys: 5 });
    fc.assert(fc.property(objects, indent, fc.boolean(), (args, space, python) => {
      const text = python ? pyRepr(args) : JSON.stringify(args, null, space);
      for (let end = 1; end < text.length; end++) {
        const prefix = text.slice(0, end);
        let thrown: unknown;
        try {
          repairJsonText(prefix);
        } catch (error) {
          thrown = error;
        }
        expect(thrown, prefix).toBeInstanceOf(ArgsParseError);
        expect((thrown as ArgsParseError).truncated, prefix).toBe(true);
      }
    }), { seed, numRuns: Math.ceil(numRuns / 5) });
  });
});

test('blank is blank as String.prototype.trim sees it: any Unicode white space, and nothing else', () => {
  for (const blank of ['', ' \n\t\r', '\u00a0', '\u3000\u2028', '\ufeff ']) {
    expect(repairJsonText(blank).text).toBe('{}');
  }
  expect(() => repairJsonText('\u00a0x')).toThrow(ArgsParseError);
});
