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

describe("parameterTags: GLM's key tags", () => {
  test('each <arg_key> name once, in order, after the Claude tags of the same string', async () => {
    const { parameterTags } = await load();
    expect(parameterTags('app.log</arg_value><arg_key>pattern</arg_key>\n<arg_value>error</arg_value><arg_key>start_line</arg_key><arg_value>1<arg_key>pattern</arg_key>')).toEqual(['pattern', 'start_line']);
    expect(parameterTags('<arg_key>b</arg_key><parameter name="a">')).toEqual(['a', 'b']);
  });

  test('a key tag of one character and one of 200 are read; one of 201, an empty one or one holding a quote or a bracket is not', async () => {
    const { parameterTags } = await load();
    expect(parameterTags('<arg_key>n</arg_key>')).toEqual(['n']);
    expect(parameterTags(`<arg_key>${'a'.repeat(200)}</arg_key>`)).toEqual(['a'.repeat(200)]);
    expect(parameterTags(`<arg_key>${'a'.repeat(201)}</arg_key>`)).toEqual([]);
    expect(parameterTags('<arg_key></arg_key>')).toEqual([]);
    expect(parameterTags('<arg_key>a"b</arg_key><arg_key>a<b</arg_key>')).toEqual([]);
  });

  test('a key tag never closed, or only its closer, names nothing', async () => {
    const { parameterTags } = await load();
    expect(parameterTags('<arg_key>pattern')).toEqual([]);
    expect(parameterTags('page</arg_key><arg_value>5')).toEqual([]);
    expect(parameterTags('<arg_value>5</arg_value>')).toEqual([]);
  });
});

describe("parameterTags: Qwen3-Coder's parameter tags", () => {
  test('each <parameter=X> name once, in order, after the Claude and GLM tags of the same string', async () => {
    const { parameterTags } = await load();
    expect(parameterTags('上海\n</parameter1>\n<parameter=date>\n2026\n</parameter>\n<parameter=days>\n3<parameter=date>')).toEqual(['date', 'days']);
    expect(parameterTags('<parameter=c><arg_key>b</arg_key><parameter name="a">')).toEqual(['a', 'b', 'c']);
  });

  test('a name of one character and one of 200 are read; one of 201, an empty one, or one holding a quote, a bracket or a space is not', async () => {
    const { parameterTags } = await load();
    expect(parameterTags('<parameter=n>')).toEqual(['n']);
    expect(parameterTags(`<parameter=${'a'.repeat(200)}>`)).toEqual(['a'.repeat(200)]);
    expect(parameterTags(`<parameter=${'a'.repeat(201)}>`)).toEqual([]);
    expect(parameterTags('<parameter=>')).toEqual([]);
    expect(parameterTags('<parameter="a"><parameter=a<b><parameter=a b>')).toEqual([]);
  });

  test('an opening never closed, or only a closing tag, names nothing', async () => {
    const { parameterTags } = await load();
    expect(parameterTags('<parameter=date')).toEqual([]);
    expect(parameterTags('上海\n</parameter>')).toEqual([]);
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

describe("ranTogether: GLM's key tags named as the string spells them", () => {
  test('a name the string tags only in GLM grammar is named with its <arg_key> tag', async () => {
    const { ranTogether } = await load();
    expect(ranTogether('/file', 'a<arg_key>pattern</arg_key><arg_value>b', ['pattern'], ['string']).message).toBe(
      '"a<arg_key>pattern</arg_key><arg_value>b" at /file was left as it is: it holds the tool-call markup of the parameter pattern (<arg_key>pattern</arg_key>), which the arguments lack: the call\'s parameters ran together into this string; send pattern as an argument of its own, and this string alone',
    );
  });

  test('each name with the tag of its own grammar where a string holds both', async () => {
    const { ranTogether } = await load();
    expect(ranTogether('/a', '<parameter name="x">1<arg_key>y</arg_key>', ['x', 'y'], ['string']).message).toContain('(<parameter name="x">, <arg_key>y</arg_key>)');
  });
});

describe("ranTogether: Qwen3-Coder's tags named as the string spells them", () => {
  test('a name the string tags only in Qwen3-Coder grammar is named with its <parameter=X> tag', async () => {
    const { ranTogether } = await load();
    expect(ranTogether('/city', 'a\n<parameter=date>\nb', ['date'], ['string']).message).toContain('markup of the parameter date (<parameter=date>), which');
  });

  test("each name with the tag of its own grammar: Claude's first, then GLM's, then Qwen3-Coder's", async () => {
    const { ranTogether } = await load();
    const value = '<parameter=x><parameter name="x"><arg_key>y</arg_key><parameter=y><parameter=z>';
    expect(ranTogether('/a', value, ['x', 'y', 'z'], ['string']).message).toContain('(<parameter name="x">, <arg_key>y</arg_key>, <parameter=z>)');
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
