/**
 * The layers, as rules (`npm run lint:deps`): src/json ← src/schema ← src/coerce ← src/report ←
 * src/adapters, each folder importing only the folders before it; the public entry files
 * (src/*.ts) may import any layer, and no layer imports an entry file except the adapters.
 * docs/ARCHITECTURE.md draws the same picture, and test/architecture.test.ts holds it to the code.
 */
const ENTRY = '^src/[^/]+\\.ts$';

/** A rule that `from` may not import any of `to`. */
function layer(name, from, to, comment) {
  return { name, severity: 'error', comment, from: { path: from }, to: { path: to } };
}

module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', comment: 'No import cycles, at any length.', from: {}, to: { circular: true } },
    layer('json-is-the-base', '^src/json/', ['^src/(schema|coerce|report|adapters)/', ENTRY], 'src/json imports no other layer.'),
    layer('schema-over-json', '^src/schema/', ['^src/(coerce|report|adapters)/', ENTRY], 'src/schema imports only src/json.'),
    layer('coerce-over-schema', '^src/coerce/', ['^src/(report|adapters)/', ENTRY], 'src/coerce imports only src/json and src/schema.'),
    layer('report-over-coerce', '^src/report/', ['^src/adapters/', ENTRY], 'src/report imports no adapter and no entry file.'),
    {
      name: 'adapters-use-public-entries',
      severity: 'error',
      comment:
        'Adapters reach the core through the public entry files (src/index.ts, src/validate.ts, …). ' +
        'Named modules need internals: the proxy reads message heads with the JSON scanner and copies ' +
        'what it keeps of them with src/json/strings.ts (src/adapters/proxy/message.ts), splices into the ' +
        'bytes of a call the spans the text path rewrote, so the bytes it leaves alone go on as they came ' +
        '(src/adapters/proxy/call-repair.ts and src/adapters/proxy/splice.ts, through src/coerce/coerce.ts), ' +
        'and tells the scanner which arguments it checked for control bytes (call-repair.ts; session.ts reads a ' +
        'line\'s first token with it); the repair of tool results finds `structuredContent` with the scanner and ' +
        'splices the spans the text path rewrote in it (src/adapters/proxy/result-repair.ts); the MCP wire ' +
        'writes exact numbers with the number-literal helpers (src/adapters/mcp/wire.ts); the MCP client ' +
        'repairs tool results with src/report/tool-result.ts (src/adapters/mcp/results.ts), which the public ' +
        'entry that holds it, src/mcp.ts, cannot lend the adapter it also exports without a cycle; the CLI writes the spans the ' +
        'text path rewrote into the text it read (src/adapters/cli/repair.ts and src/adapters/cli/write-edits.ts), ' +
        'takes the verdicts of its one pass as they are made (src/adapters/cli/verdict-lines.ts, a VerdictSink) and ' +
        'names the subcommand nearest to a misspelled one with the edit distance of src/json/strings.ts ' +
        '(src/adapters/cli/command-line.ts).',
      from: { path: '^src/adapters/', pathNot: '^src/adapters/(proxy/message|proxy/call-repair|proxy/result-repair|proxy/session|proxy/splice|mcp/wire|mcp/results|cli/repair|cli/write-edits|cli/verdict-lines|cli/command-line)[.]ts$' },
      to: { path: '^src/(json|schema|coerce|report)/' },
    },
    { name: 'not-to-unresolvable', severity: 'error', comment: 'Every import resolves.', from: {}, to: { couldNotResolve: true } },
  ],
  options: {
    includeOnly: '^src/',
    doNotFollow: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
