/** The rows of `fixtures/report/report.json`: log files (each a list of lines) and arguments in, the exit status, stdout and stderr out. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** One row. */
export interface ReportCase {
  readonly name: string;
  readonly files: Record<string, string[]>;
  readonly args: string[];
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Every row. */
export const REPORT_CASES: readonly ReportCase[] = (JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'fixtures', 'report', 'report.json'), 'utf8')) as { cases: ReportCase[] }).cases;
