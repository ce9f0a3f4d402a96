/**
 * The repair report in words: what each finding says to a schema author ("`limit` comes as a
 * string in 41% of calls"), the rows in the order they matter, and the report as a table on the
 * terminal. What the logs hold came from clients: every control character is shown escaped, so
 * no line of a log can move the cursor or recolour the terminal.
 */
import type { Finding, RepairReport, ToolSummary } from './report-read.js';

/** The findings a report leads with. */
const HEADLINES = 5;

/** What a repair by each rule says of the value the model sent. */
const REPAIRS: Readonly<Record<string, string>> = {
  'integer-literal': 'comes as a whole number written with a fraction (5.0) for an integer',
  'string-to-integer': 'comes as a string for an integer',
  'string-to-number': 'comes as a string for a number',
  'string-to-boolean': 'comes as a string for a boolean',
  'number-to-boolean': 'comes as a number for a boolean',
  'string-to-null': 'comes as the string "null" for null',
  'number-to-string': 'comes as a number for a string',
  'wrap-in-array': 'comes as one value where an array is expected',
  'json-text': 'comes as JSON text inside a string',
  'rename-key': 'comes under a misspelt key',
  'enum-case': 'comes in another case (or with spaces) than its enum member',
  'optional-null': 'comes as null where it is optional and takes no null',
  unwrap: 'comes wrapped in {"name", "arguments"}',
  'flattened-key': 'comes as a flattened key ("a.b") for a nested one',
};

/** What a refusal for each reason says. */
const REFUSALS: Readonly<Record<string, string>> = {
  'not-whole': 'comes with a fraction where an integer is expected',
  'out-of-range': 'comes out of the integer range',
  ambiguous: 'comes with more than one reading',
  unconvertible: 'comes as a value no rule can convert',
  cycle: 'contains itself',
  unreadable: 'could not be read',
};

/** The parameter as a schema author names it: the pointer without its leading slash; the whole arguments when empty. */
export function parameterName(finding: Finding): string {
  return finding.parameter === '' ? '(the arguments)' : finding.parameter.slice(1);
}

/** What a finding says of the value: `comes as a string for an integer`. */
function words(finding: Finding): string {
  if (finding.kind === 'refusal') return Object.hasOwn(REFUSALS, finding.name) ? REFUSALS[finding.name]! : 'refused';
  return Object.hasOwn(REPAIRS, finding.name) ? REPAIRS[finding.name]! : finding.parameter === '' ? 'comes as text that is not JSON, repaired' : 'repaired';
}

/** What a finding says, with its rule or reason: `comes as a string for an integer (string-to-integer)`. */
export function findingText(finding: Finding): string {
  return `${words(finding)}${finding.kind === 'refusal' ? ', left as it is' : ''} (${finding.name})`;
}

/** The share of the tool's recorded calls a finding was seen in, when the tool's calls were recorded (an audit log). */
export function shareOf(tool: ToolSummary, finding: Finding): number | undefined {
  return tool.calls === 0 ? undefined : finding.inCalls / tool.calls;
}

/** A share as a whole percentage (`41%`), or `<1%` for a share above none. */
export function percent(share: number | undefined): string {
  if (share === undefined) return '—';
  const rounded = Math.round(share * 100);
  return rounded === 0 && share > 0 ? '<1%' : `${rounded}%`;
}

/** The tools, most calls (then most findings) first; each tool's findings, most seen first. */
export function ordered(report: RepairReport): { tool: ToolSummary; findings: Finding[] }[] {
  const weight = (tool: ToolSummary): number => [...tool.findings.values()].reduce((sum, finding) => sum + finding.count, 0);
  return [...report.tools.values()]
    .sort((a, b) => b.calls - a.calls || weight(b) - weight(a) || compare(a.tool, b.tool))
    .map((tool) => ({ tool, findings: [...tool.findings.values()].sort((a, b) => b.count - a.count || compare(a.parameter, b.parameter) || compare(a.name, b.name)) }));
}

/** What a schema author reads of a finding, after the parameter's name: "comes as a string for an integer in 41% of calls". */
export function sentence(tool: ToolSummary, finding: Finding): string {
  const share = shareOf(tool, finding);
  return `${words(finding)} ${share === undefined ? counted(finding.count, 'time') : `in ${percent(share)} of calls`}`;
}

/** A tool's name as shown: `(no tool name)` for calls that named none. */
export function toolName(tool: ToolSummary): string {
  return tool.tool === '' ? '(no tool name)' : tool.tool;
}

/** What the calls of a tool came to: `100 calls: 56 forwarded, 41 repaired, 3 refused`. */
export function outcomeLine(tool: ToolSummary): string {
  const outcomes = [...tool.outcomes].sort((a, b) => b[1] - a[1]).map(([outcome, count]) => `${count} ${outcome}`);
  const calls = tool.calls === 0 ? 'calls not recorded' : `${counted(tool.calls, 'call')}: ${outcomes.join(', ')}`;
  return tool.calls === 0 && tool.rejections > 0 ? `${calls}; ${tool.rejections} answered with an error` : calls;
}

/** The `count` findings seen in the largest share of calls (then most often), over every tool. */
export function headlines(report: RepairReport, count: number): { tool: ToolSummary; finding: Finding }[] {
  return ordered(report)
    .flatMap(({ tool, findings }) => findings.map((finding) => ({ tool, finding })))
    .sort((a, b) => (shareOf(b.tool, b.finding) ?? 0) - (shareOf(a.tool, a.finding) ?? 0) || b.finding.count - a.finding.count)
    .slice(0, count);
}

/** What was read: `2 files: 120 audit lines (one per call), 4 log lines, 1 line skipped`. */
export function sources(report: RepairReport): string {
  const { audit, log, skipped } = report.lines;
  return `${counted(report.files.length, 'file')}: ${counted(audit, 'audit line')} (one per call), ${counted(log, 'log line')}${skipped === 0 ? '' : `, ${counted(skipped, 'line')} skipped`}`;
}

/** `1 call`, `2 calls`. */
export function counted(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/** The report as text for a terminal. */
export function reportTable(report: RepairReport): string {
  const out = [sources(report)];
  if (report.tools.size === 0) out.push('', 'No tool call was recorded.');
  const top = headlines(report, HEADLINES);
  if (top.length > 0) out.push('', 'In short:', ...top.map(({ tool, finding }) => `  ${shown(toolName(tool))}: \`${shown(parameterName(finding))}\` ${sentence(tool, finding)}`));
  for (const { tool, findings } of ordered(report)) {
    out.push('', `${shown(toolName(tool))}: ${outcomeLine(tool)}`);
    if (tool.rejection !== undefined) out.push(`  answered with an error, e.g.: ${shown(tool.rejection)}`);
    if (findings.length === 0) {
      out.push('  nothing repaired or refused');
      continue;
    }
    const rows = findings.map((finding) => [shown(parameterName(finding)), findingText(finding), String(finding.count), percent(shareOf(tool, finding)), shown(finding.example ?? '(values not recorded)')]);
    out.push(...table(['parameter', 'finding', 'count', 'share', 'example'], rows, [false, false, true, true, false]));
  }
  return out.join('\n') + '\n';
}

/** Rows as columns padded to their widths (right-aligned where `right` says), indented two spaces. */
function table(head: string[], rows: string[][], right: boolean[]): string[] {
  const widths = head.map((title, column) => Math.max(width(title), ...rows.map((row) => width(row[column]!))));
  const line = (cells: string[]): string =>
    '  ' + cells.map((cell, column) => {
      const pad = ' '.repeat(widths[column]! - width(cell));
      return right[column] ? pad + cell : column === cells.length - 1 ? cell : cell + pad;
    }).join('  ');
  return [line(head), ...rows.map(line)];
}

/** Characters on the terminal (code points; wide characters are not measured). */
function width(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

/** Text from a log as the terminal shows it: control characters (C0, DEL, C1) and line separators as `\u` escapes. */
function shown(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
