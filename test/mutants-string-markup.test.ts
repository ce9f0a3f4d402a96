/**
 * Call structure inside string values (src/coerce/string-markup.ts, rule `markup`), one behaviour
 * per test under a name of its own: which parameter tags a string holds, the refusal of
 * parameters run together and its words, each engine's call tokens and whose they are. The rows
 * of `fixtures/wild/strings-markup.json` and `engines.json` cover the same ground through every
 * entry point, but check the refusal's reason, not its words. The token table and the tag pattern
 * are module constants, so every test here imports the module afresh.
 */
import { beforeEach, describe, expect, test, vi } from 'vitest';

beforeEach(() => {
  vi.resetModules();
});
const load = (): Promise<typeof import('../src/coerce/string-markup.js')> => import('../src/coerce/string-markup.js');

describe('parameterTags: the parameter names a string names in tags', () => {
  test('each name once, in the order of first appearance', async () => {
    const { parameterTags } = await load();
    expect(parameterTags('a</prompt>\n<parameter name="preset">x</parameter><parameter name="caption">y<parameter name="preset">')).toEqual(['preset', 'caption']);
  });

  test('a name of one character and one of 200 are read; one of 201 is not a tag', async () => {
    const { parameterTags } = await load();
    expect(parameterTags('<parameter name="n">')).toEqual(['n']);
    expect(parameterTags(`<parameter name="${'a'.repeat(200)}">`)).toEqual(['a'.repeat(200)]);
    expect(parameterTags(`<parameter name="${'a'.repeat(201)}">`)).toEqual([]);
  });

  test('a name holding a quote or an angle bracket is no tag', async () => {
    const { parameterTags } = await load();
    expect(parameterTags('<parameter name="a<b">')).toEqual([]);
    expect(parameterTags('<parameter name="">')).toEqual([]);
  });

  test('a string with no parameter tag names nothing', async () => {
    const { parameterTags } = await load();
    expect(parameterTags('a plain string')).toEqual([]);
    expect(parameterTags('<parameter name=preset>')).toEqual([]);
  });
});

describe('ranTogether: the refusal of parameters run together into a string', () => {
  test('one missing parameter: named in the singular, with its tag', async () => {
    const { ranTogether } = await load();
    expect(ranTogether('/prompt', 'p<parameter name="preset">x', ['preset'], ['string'])).toEqual({
      path: '/prompt',
      value: 'p<parameter name="preset">x',
      reason: 'ambiguous',
      expected: ['string'],
      message: '"p<parameter name=\\"preset\\">x" at /prompt was left as it is: it holds the tool-call markup of the parameter preset (<parameter name="preset">), which the arguments lack: the call\'s parameters ran together into this string; send preset as an argument of its own, and this string alone',
    });
  });

  test('two missing parameters: named in the plural, comma separated, each with its tag', async () => {
    const { ranTogether } = await load();
    expect(ranTogether('/a', 'v', ['narrative', 'verification'], ['string', 'null']).message).toBe(
      '"v" at /a was left as it is: it holds the tool-call markup of the parameters narrative, verification (<parameter name="narrative">, <parameter name="verification">), which the arguments lack: the call\'s parameters ran together into this string; send narrative, verification as arguments of their own, and this string alone',
    );
  });
});

describe('engineTokenRefusal: an engine call token inside a string', () => {
  test('each token is refused, naming the token and its engine', async () => {
    const { engineTokenRefusal } = await load();
    const tokens: readonly (readonly [string, string])[] = [
      ['<|"|>', 'Gemma 4'],
      ['<|tool_call_argument_begin|>', 'Kimi K2'],
      ['<|tool_call_begin|>', 'Kimi K2'],
      ['<|tool_calls_section_begin|>', 'Kimi K2'],
      ['<\uff5cDSML\uff5cinvoke name="x">', 'DeepSeek DSML'],
    ];
    for (const [text, engine] of tokens) {
      const refusal = engineTokenRefusal('/q', `a${text}b`, ['string']);
      expect(refusal, text).toMatchObject({ path: '/q', value: `a${text}b`, reason: 'ambiguous', expected: ['string'] });
      expect(refusal!.message, text).toContain(`, a token of the ${engine} tool-call format`);
    }
  });

  test('the message quotes the token and says where, what happened and what to send', async () => {
    const { engineTokenRefusal } = await load();
    expect(engineTokenRefusal('/q', 'x<|"|>y', ['string'])!.message).toBe(
      '"x<|\\"|>y" at /q was left as it is: it holds "<|\\"|>", a token of the Gemma 4 tool-call format: the serving engine did not turn the model\'s call into this value (check its tool-call parser for this model); send the value alone',
    );
  });

  test('at the root the message says "the root"', async () => {
    const { engineTokenRefusal } = await load();
    expect(engineTokenRefusal('', '<|tool_call_begin|>', ['string'])!.message).toMatch(/^"<\|tool_call_begin\|>" at the root was left as it is: /);
  });

  test('a string holding none of the tokens is not refused', async () => {
    const { engineTokenRefusal } = await load();
    expect(engineTokenRefusal('/q', 'a <b> tag, <|im_end|> and <| |>', ['string'])).toBeUndefined();
    expect(engineTokenRefusal('/q', 'no markup', ['string'])).toBeUndefined();
  });

  test('the DSML marker without any < (no tag of the format) is content, not refused', async () => {
    const { engineTokenRefusal } = await load();
    expect(engineTokenRefusal('/q', 'the \uff5cDSML\uff5c marker', ['string'])).toBeUndefined();
  });
});
