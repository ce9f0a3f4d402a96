/**
 * Runs every fixture table (JSON on stdin, from `tables.ts`) through the package's entries,
 * imported by name as a user would, and writes the outcomes (JSON) to stdout. Run by the Deno and
 * Bun suites in those runtimes, with no permission asked: `deno run fixture-check.mjs`,
 * `bun fixture-check.mjs`.
 */
import * as index from 'schema-coerce';
import * as render from 'schema-coerce/render';
import * as validate from 'schema-coerce/validate';
import { runFixtureTables } from './fixture-rows.mjs';

let text = '';
process.stdin.setEncoding('utf8');
for await (const chunk of process.stdin) text += chunk;
process.stdout.write(JSON.stringify(runFixtureTables({ index, render, validate }, JSON.parse(text))));
