import { describe, expect, test } from 'vitest';
import { repairToolInput } from '../src/ai.js';
import { withArgCoercion } from '../src/mcp.js';
import { runCli } from './_helpers/run.js';

const SCHEMA = '{"properties":{"path":{"type":"string"},"recursive":{"type":"boolean"},"depth":{"type":"integer"}}}';

describe('syntax repair at the text entries', () => {
  test('CLI --lenient repairs a Python repr and --report lists the repairs first', () => {
    const run = runCli(['--lenient', '--report', '-s', SCHEMA, "{'path': 'src', 'recursive': True, 'depth': 2.0}"]);
    expect(run.status).toBe(0);
    expect(run.stdout).toBe('{"path":"src","recursive":true,"depth":2}\n');
    expect(run.stderr.trim().split('\n').map((line) => JSON.parse(line) as unknown)).toEqual([
      { type: 'change', path: '', from: "'path'", to: '"path"', rule: 'quotes' },
      { type: 'change', path: '', from: 'True', to: 'true', rule: 'python-literal' },
      { type: 'change', path: '/depth', from: '2.0', to: '2', rule: 'integer-literal' },
    ]);
  });

  test('CLI --lenient prints a repaired text that needed no coercion as repaired', () => {
    expect(runCli(['--lenient', '-s', SCHEMA, '```json\n{"path": "src"}\n```']).stdout).toBe('{"path": "src"}\n');
  });

  test('CLI --lenient refuses a cut-off text, exit 2, and says so', () => {
    const run = runCli(['--lenient', '-s', SCHEMA, '{"path": "sr']);
    expect(run).toEqual({ status: 2, stdout: '', stderr: expect.stringMatching(/^schema-coerce: args: the arguments were cut off at line 1 column 13/) as unknown });
  });

  test('CLI without --lenient does not repair', () => {
    expect(runCli(['-s', SCHEMA, "{'path': 'src'}"]).status).toBe(2);
  });

  test('AI SDK repair: a Python repr and a fence are repaired, a cut-off input is left to fail', () => {
    const schema = JSON.parse(SCHEMA) as unknown;
    expect(repairToolInput("{'path': 'src', 'recursive': False}", schema)).toBe('{"path": "src", "recursive": false}');
    expect(repairToolInput('```\n{"path": "src"}\n```', schema)).toBe('{"path": "src"}');
    expect(repairToolInput('{"path": "src", "depth": 1', schema)).toBeUndefined();
  });

  test('MCP client adapter: arguments given as text are repaired, a cut-off text is not sent', async () => {
    const sent: unknown[] = [];
    const fake = {
      listTools: async () => ({ tools: [{ name: 'ls', inputSchema: JSON.parse(SCHEMA) as unknown }] }),
      callTool: async (params: unknown) => {
        sent.push(params);
        return { content: [] };
      },
      setNotificationHandler: () => undefined,
      // The adapter taps the transport the client connects with (result repair): a client has a connect.
      connect: async () => undefined,
    };
    const client = withArgCoercion(fake as never, { lenient: true }) as unknown as typeof fake;
    await client.callTool({ name: 'ls', arguments: "{'path': 'src', 'recursive': True}" });
    expect(sent).toEqual([{ name: 'ls', arguments: { path: 'src', recursive: true } }]);
    const result = (await client.callTool({ name: 'ls', arguments: '{"path": "sr' })) as { isError?: boolean; content: { text: string }[] };
    expect(sent).toHaveLength(1);
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toContain('most likely at the output-token limit');
  });
});
