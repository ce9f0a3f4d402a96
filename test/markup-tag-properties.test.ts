/**
 * Properties of the refusal of parameters run together into a string (rule `markup`,
 * src/coerce/string-markup.ts), fast-check with a fixed seed: a string holding the opening tag
 * of a declared parameter the arguments lack, in any of the three grammars (Claude's
 * `<parameter name="X">`, GLM's `<arg_key>X</arg_key>`, Qwen3-Coder's `<parameter=X>`), between
 * any other text, is refused `ambiguous` there and left as sent. Its second reading, content that
 * quotes such a tag, is what the text means when the tagged parameter is sent as well or is not
 * declared: then nothing is refused and nothing changes.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { coerceArgs, coerceArgsJson } from '../src/index.js';

const seed = Number(process.env['FC_SEED'] ?? 20261204);
const numRuns = Number(process.env['FC_RUNS'] ?? 200);

const GRAMMARS: readonly ((name: string) => string)[] = [(name) => `<parameter name="${name}">`, (name) => `<arg_key>${name}</arg_key>`, (name) => `<parameter=${name}>`];

/** Three distinct parameter names: the string's own, the tagged one, another. */
const names = fc.uniqueArray(fc.stringMatching(/^[a-z][a-z0-9_]{0,11}$/), { minLength: 3, maxLength: 3 });
/** Text around the tag, holding no tag of its own. */
const around = fc.string({ maxLength: 40 }).filter((text) => !text.includes('<'));
const grammar = fc.constantFrom(...GRAMMARS);

function schemaOf(declared: readonly string[]) {
  return { type: 'object', properties: Object.fromEntries(declared.map((name) => [name, { type: 'string' }])), additionalProperties: false };
}

describe(`parameters run together into a string (seed ${seed}, ${numRuns} runs each)`, () => {
  test('a declared parameter the arguments lack, tagged in any grammar: refused ambiguous at the string, the text left as sent', () => {
    fc.assert(
      fc.property(names, grammar, around, around, ([host, tagged, other], tag, before, after) => {
        const args = { [host!]: `${before}${tag(tagged!)}${after}`, [other!]: 'x' };
        const schema = schemaOf([host!, tagged!, other!]);
        const text = JSON.stringify(args);
        const { value, refusals } = coerceArgs(args, schema, { lenient: true });
        expect(value).toBe(args);
        expect(refusals.map((refusal) => [refusal.path, refusal.reason])).toEqual([[`/${host}`, 'ambiguous']]);
        expect(refusals[0]!.message).toContain(tag(tagged!));
        expect(coerceArgsJson(text, schema, { lenient: true })).toBe(text);
      }),
      { seed, numRuns },
    );
  });

  test('the same tag where its parameter is sent as well, or is not declared, is content: nothing refused, nothing changed', () => {
    fc.assert(
      fc.property(names, grammar, around, around, fc.boolean(), ([host, tagged, other], tag, before, after, sent) => {
        const args = sent ? { [host!]: `${before}${tag(tagged!)}${after}`, [tagged!]: 'y' } : { [host!]: `${before}${tag(tagged!)}${after}` };
        const schema = schemaOf(sent ? [host!, tagged!, other!] : [host!, other!]);
        const text = JSON.stringify(args);
        const result = coerceArgs(args, schema, { lenient: true });
        expect(result.refusals).toEqual([]);
        expect(result.value).toBe(args);
        expect(coerceArgsJson(text, schema, { lenient: true })).toBe(text);
      }),
      { seed, numRuns },
    );
  });
});
