import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { BIN, ROOT, runCli } from './_helpers/run.js';
import { makeTempDir, removeTempDirs } from './_helpers/temp.js';

afterAll(removeTempDirs);

const SCHEMA = 'examples/get_symbol_info.schema.json';

/** A command line of the CLI, what it reads on stdin, and what it must answer (stderr as a pattern). */
interface CommandRow {
  readonly name: string;
  readonly args: readonly string[];
  readonly stdin?: string;
  readonly status: number;
  readonly stdout: string;
  readonly stderr?: string;
}

const COMMANDS = JSON.parse(readFileSync(join(ROOT, 'fixtures', 'cli', 'commands.json'), 'utf8')) as CommandRow[];

describe('schema-coerce (built bin)', () => {
  test('the README quick start prints the repaired arguments', () => {
    const run = runCli(['--schema', SCHEMA, '{"line":5.0,"column":1.0,"filePath":"server.go"}']);
    expect(run).toEqual({ status: 0, stdout: '{"line":5,"column":1,"filePath":"server.go"}\n', stderr: '' });
  });

  test('reads args from stdin, and "-" means stdin', () => {
    for (const args of [['--schema', SCHEMA], ['--schema', SCHEMA, '-']]) {
      expect(runCli(args, '{"line":2.0}\n')).toMatchObject({ status: 0, stdout: '{"line":2}\n' });
    }
  });

  test('an inline schema works like a file', () => {
    const run = runCli(['-s', '{"properties":{"n":{"type":"integer"}}}', '{"n":1e3}']);
    expect(run).toMatchObject({ status: 0, stdout: '{"n":1000}\n' });
  });

  test('unchanged arguments are printed as given', () => {
    expect(runCli(['-s', SCHEMA, '{ "line": 5 }']).stdout).toBe('{ "line": 5 }\n');
  });

  test('--report writes changes and refusals to stderr as JSON lines', () => {
    const run = runCli(['--report', '-s', SCHEMA, '{"line":5.0,"column":1.5}']);
    expect(run.status).toBe(0);
    expect(run.stdout).toBe('{"line":5,"column":1.5}\n');
    const lines = run.stderr.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toEqual([
      { type: 'change', path: '/line', from: '5.0', to: '5', rule: 'integer-literal' },
      expect.objectContaining({ type: 'refusal', path: '/column', reason: 'not-whole', value: '1.5' }),
    ]);
  });

  test('--lenient converts strings by the schema', () => {
    expect(runCli(['--lenient', '-s', SCHEMA, '{"line":"7","column":" 2 "}']).stdout).toBe('{"line":7,"column":2}\n');
  });

  test('--lenient repairs the second wave of what models send, and names tool markup and the rules in --report', () => {
    const schema = '{"type":"object","properties":{"message":{"type":"string"},"path":{"type":"string"}}}';
    // `\xampp`: no escape in JSON, an error in Python, so a backslash as written (a bare `\x`
    // at the end, a `\x41` cut short, is refused instead: fixtures/wild/adversarial.json).
    const run = runCli(['--lenient', '--report', '-s', schema, '{message:<|"|>fix: a\n\nbody<|"|>, "path": "C:\\Dev\\xampp"}}']);
    // The repaired text as the reader wrote it: white space between tokens kept.
    expect(run.stdout).toBe('{"message":"fix: a\\n\\nbody", "path": "C:\\\\Dev\\\\xampp"}\n');
    expect(run.stderr.trim().split('\n').map((line) => (JSON.parse(line) as { rule: string }).rule)).toEqual(['unquoted-key', 'gemma-string', 'literal-backslash', 'stray-bracket']);
    const markup = runCli(['--lenient', '-s', schema, '<arg_key>path</arg_key>']);
    expect(markup.status).toBe(2);
    expect(markup.stderr).toMatch(/tool-call markup \("<arg_key>", the GLM format\).*tool parser/);
  });

  test('--integer-range unbounded writes big whole values out exactly', () => {
    const run = runCli(['--integer-range', 'unbounded', '-s', '{"type":"integer"}', '1e20']);
    expect(run.stdout).toBe('100000000000000000000\n');
  });

  test('--help and --version', () => {
    expect(runCli(['--help'])).toMatchObject({ status: 0, stdout: expect.stringContaining('Usage: schema-coerce') });
    expect(runCli(['-h']).stdout).toMatch(/--fail-on-refusal {6}exit 3, [^]*\n\nExit status: 0 done, 2 bad input [^]*, 3 a value refused\nunder --fail-on-refusal;/);
    expect(runCli(['--version']).stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
  });

  test.each([['proxy', '--help'], ['proxy', '-h'], ['proxy', '--lenient', '--help', '--', 'node', 'server.js']])('%s %s: the help on stdout, exit 0, no server started', (...args) => {
    const run = runCli(args);
    expect(run).toMatchObject({ status: 0, stderr: '' });
    expect(run.stdout).toBe(runCli(['--help']).stdout);
  });

  test('the help names every repair the proxy\'s --lenient makes, as the main command\'s does', () => {
    const lines = runCli(['--help']).stdout.split('\n').filter((line) => /--lenient/.test(line));
    expect(lines).toEqual([
      '  -l, --lenient              also convert by type, fix enum case, repair syntax with one reading',
      '  -l, --lenient              also convert by type, fix enum case, repair syntax with one reading',
    ]);
  });

  test('--tool names the tool: the whole call repeated with its name is unwrapped, and refusals name it', () => {
    const schema = '{"properties":{"path":{"type":"string"},"depth":{"type":"integer"}}}';
    const repeated = '{"name": "ls", "arguments": {"path": "src", "depth": "2"}}';
    expect(runCli(['--lenient', '--tool', 'ls', '-s', schema, repeated])).toEqual({ status: 0, stdout: '{"path":"src","depth":2}\n', stderr: '' });
    expect(runCli(['-l', '-t', 'ls', '-s', schema, repeated]).stdout).toBe('{"path":"src","depth":2}\n');
    // Another tool's name, or none: the object is not this tool's call repeated, and stays.
    expect(runCli(['--lenient', '--tool', 'cat', '-s', schema, repeated]).stdout).toBe(`${repeated}\n`);
    expect(runCli(['--lenient', '-s', schema, repeated]).stdout).toBe(`${repeated}\n`);
    expect(runCli(['--lenient', '--tool', 'ls', '-s', schema, '{"path": "sr']).stderr).toMatch(/^schema-coerce: args: the arguments were cut off/);
  });

  test('the proxy takes -l for --lenient, as the main command does', () => {
    const run = runCli(['proxy', '-l', '--integer-range', 'huge', '--', 'node', 'server.js']);
    expect(run).toMatchObject({ status: 2, stderr: 'schema-coerce proxy: --integer-range must be int64, safe or unbounded, not "huge"\n' });
  });

  test('binary garbage on stdin and in a --schema file: exit 2, one positioned line, nothing on stdout', () => {
    const garbage = Buffer.from([0x00, 0xff, 0xfe, 0x7b, 0x22, 0x0a, 0x1b, 0x5b, 0x32, 0x4a]).toString('latin1');
    const onStdin = runCli(['-s', SCHEMA], garbage);
    expect(onStdin.status).toBe(2);
    expect(onStdin.stdout).toBe('');
    expect(onStdin.stderr).toMatch(/^schema-coerce: args \(stdin\): invalid JSON at line 1 column 1 \(position 0\): [^\n]*\n$/);
    const dir = makeTempDir('schema-coerce-cli-');
    const file = join(dir, 'garbage.json');
    writeFileSync(file, Buffer.from([0x7b, 0x0a, 0x00, 0xff, 0x7d]));
    const inSchema = runCli(['-s', file, '{}']);
    expect(inSchema.status).toBe(2);
    expect(inSchema.stdout).toBe('');
    expect(inSchema.stderr).toMatch(/^schema-coerce: --schema \S+garbage\.json: invalid JSON at line 2 column 1 \(position 2\): [^\n]*\n$/);
  });

  test.each([
    ['args that are not JSON', ['-s', SCHEMA, '{"line":5.0,]'], /^schema-coerce: args: invalid JSON at line 1 column 13 \(position 12\)/],
    ['args that were cut off', ['-s', SCHEMA, '{"line":5.0,'], /^schema-coerce: args: the arguments were cut off at line 1 column 13 \(position 12\)/],
    ['stdin that is not JSON', ['-s', SCHEMA], /^schema-coerce: args \(stdin\): invalid JSON at line 1 column 1 \(position 0\)/, 'garbage'],
    ['a schema file that is missing', ['-s', 'nope.json', '{}'], /^schema-coerce: --schema nope.json: cannot read the file \(ENOENT\)/],
    ['a schema file that is not JSON', ['-s', 'vitest.config.ts', '{}'], /^schema-coerce: --schema vitest.config.ts: invalid JSON at line 1 column 1 \(position 0\)/],
    ['inline schema that is not JSON', ['-s', '{"a":', '{}'], /^schema-coerce: --schema \(inline\): invalid JSON at line 1 column 6/],
    ['no --schema', ['{}'], /^schema-coerce: --schema is required/],
    ['an unknown option', ['--bogus'], /^schema-coerce: Unknown option '--bogus'/],
    ['a bad --integer-range', ['--integer-range', 'huge', '-s', SCHEMA, '{}'], /^schema-coerce: --integer-range must be/],
    ['two operands', ['-s', SCHEMA, '{}', '{}'], /^schema-coerce: expected at most one args operand/],
    ['an unknown proxy option', ['proxy', '--bogus', '--', 'node', 'server.js'], /^schema-coerce proxy: Unknown option '--bogus'/],
    ['a proxy without a server', ['proxy', '--lenient'], /^schema-coerce proxy: give the server command after --/],
  ])('%s: exit 2, one line naming the problem, nothing on stdout', (_name, args, message, input?: string) => {
    const run = runCli(args, input);
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(message);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
  });

  test.each(COMMANDS.map((row) => [row.name, row] as const))('%s', (_name, row) => {
    const run = runCli(row.args, row.stdin);
    expect(run.stdout).toBe(row.stdout);
    expect(run.status).toBe(row.status);
    if (row.stderr !== undefined) expect(run.stderr).toMatch(new RegExp(row.stderr));
  });

  test('a text larger than an output chunk: every rewrite made, every character between them kept, across chunk boundaries', () => {
    // 3 MB of UTF-8: astral characters (surrogate pairs in the text, 4 bytes out) and two-byte
    // ones in long strings that straddle the 1 MB chunks, and 200,000 literals rewritten between.
    const strings = ['é😀x'.repeat(90_001), '☃😀'.repeat(70_003), 'a'.repeat(1_048_573) + '😀'];
    const items = [...strings.map((s) => JSON.stringify(s)), ...Array.from({ length: 200_000 }, (_, i) => `${i}.0`)];
    const schema = '{"type":"array","items":{"type":["integer","string"]}}';
    const input = `[${items.join(', ')}]`;
    const expected = `[${[...strings.map((s) => JSON.stringify(s)), ...Array.from({ length: 200_000 }, (_, i) => String(i))].join(', ')}]\n`;
    const run = spawnSync(process.execPath, [BIN, '-s', schema], { cwd: ROOT, input, encoding: 'utf8', maxBuffer: 16 * expected.length });
    expect({ status: run.status, stderr: run.stderr, length: run.stdout.length }).toEqual({ status: 0, stderr: '', length: expected.length });
    expect(run.stdout === expected).toBe(true);
  });

  test('a reader that goes away: one line naming stdout, exit 1, no stack trace', async () => {
    const child = spawn(process.execPath, [BIN, '-s', '{"type":"array","items":{"type":"integer"}}'], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdin.end(`[${'1.0,'.repeat(1_000_000)}1.0]`);
    const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect({ status, stderr }).toEqual({ status: 1, stderr: 'schema-coerce: stdout: cannot write the output (EPIPE)\n' });
  });
});
