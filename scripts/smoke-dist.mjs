#!/usr/bin/env node
// The built package on a bare Node, with no test runner: CI runs it on Node 18, where vitest 4
// and vite 8 do not run. Every entry point loads as ESM and as CJS with the same exports, the
// core repairs, validates and renders, and the CLI quick start prints what the README says.
// Run after `npm run build`: node scripts/smoke-dist.mjs
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(import.meta.url);
const entries = ['index', 'validate', 'render', 'mcp', 'ai'];
const loaded = {};
for (const entry of entries) {
  const esm = await import(new URL(`../dist/${entry}.js`, import.meta.url).href);
  const cjs = require(`../dist/${entry}.cjs`);
  assert.deepEqual(Object.keys(cjs).sort(), Object.keys(esm).sort(), `dist/${entry}: ESM and CJS export the same names`);
  loaded[entry] = { esm, cjs };
}

const schema = { type: 'object', properties: { line: { type: 'integer' }, q: { type: 'string' } }, required: ['q'] };
for (const format of ['esm', 'cjs']) {
  const { coerceArgsJson, parseArgs, stringifyArgs } = loaded.index[format];
  assert.equal(coerceArgsJson('{"line":5.0,"q":"x"}', schema), '{"line":5,"q":"x"}');
  assert.equal(coerceArgsJson('{"line":"5","q":"x"}', schema, { lenient: true }), '{"line":5,"q":"x"}');
  assert.equal(stringifyArgs(parseArgs('{"id":12345678901234567890.0}')), '{"id":12345678901234567890.0}');
  assert.equal(loaded.validate[format].validateArgs({ query: 'x' }, schema).ok, false);
  assert.match(loaded.render[format].renderSchemaForModel(schema), /q/);
  assert.equal(typeof loaded.mcp[format].withArgCoercion, 'function');
  assert.equal(loaded.ai[format].repairToolInput('{"line":"5","q":"x"}', schema), '{"line":5,"q":"x"}');
}

const cli = execFileSync(process.execPath, ['dist/cli.js', '--schema', 'examples/get_symbol_info.schema.json', '{"line":5.0,"column":1.0,"filePath":"server.go"}'], { cwd: root, encoding: 'utf8' });
assert.equal(cli, '{"line":5,"column":1,"filePath":"server.go"}\n');
console.log(`dist smoke on Node ${process.version}: ${entries.length} entries as ESM and CJS, the CLI quick start: ok`);
