/**
 * `schema-coerce report` in this process (`runReport`, so a mutation run reaches it): the rows of
 * `fixtures/report/report.json` with each file given by its full path, the same output expected
 * (the folder left out of the names on stderr). test/report-cli.test.ts runs the same rows through
 * the built CLI; this one also checks the HTML page's text for the rows that read files.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { UsageError } from '../src/adapters/cli/errors.js';
import { reportHtml } from '../src/adapters/cli/report-html.js';
import { readLogs } from '../src/adapters/cli/report-read.js';
import { runReport } from '../src/adapters/cli/report.js';
import { captureStream } from './_helpers/gateway.js';
import { REPORT_CASES } from './_helpers/report-rows.js';
import { makeTempDir, removeTempDirs } from './_helpers/temp.js';

afterAll(removeTempDirs);


test.each(REPORT_CASES.map((row) => [row.name, row] as const))('%s', async (_name, row) => {
  const folder = makeTempDir('report-rows-');
  for (const [name, lines] of Object.entries(row.files)) writeFileSync(join(folder, name), lines.map((line) => `${line}\n`).join(''));
  const args = row.args.map((arg) => (arg.startsWith('-') ? arg : join(folder, arg)));
  const stdout = captureStream();
  const stderr = captureStream();
  let status: number;
  try {
    status = await runReport(args, stdout, stderr);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    // As src/cli.ts writes it.
    stderr.write(`${error.command}: ${error.detail}\n`);
    status = 2;
  }
  const unfold = (text: string): string => text.replaceAll(`${folder}/`, '');
  expect({ status, stdout: stdout.text(), stderr: unfold(stderr.text()) }).toEqual({ status: row.status, stdout: row.stdout, stderr: row.stderr });
  if (row.status !== 0) return;
  // The page says what the table says: every tool, parameter and share.
  const page = reportHtml(await readLogs(args.filter((arg) => !arg.startsWith('-')), () => undefined), new Date('2026-12-03T00:00:00Z'));
  for (const share of row.stdout.matchAll(/ (\d+%|<1%) {2}/g)) expect(page).toContain(`<td class="n">${share[1]!.replace('<', '&#60;')}</td>`);
  expect(page).toContain('2026-12-03T00:00:00.000Z');
});
