/**
 * The repair report's input: the gateway's audit log (one line per call, `outcome` in it) and the
 * proxy's or gateway's `--log` (one line per change, refusal or rejection, `kind` in it), read
 * line by line and summed per tool and parameter. A line that is neither is named by file and
 * line and skipped; nothing of a file is kept but the sums and one example per finding.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

/** What one finding is: a repair by a rule, a value refused for a reason. */
type FindingKind = 'repair' | 'refusal';

/** One kind of repair or refusal at one parameter of one tool. */
export interface Finding {
  readonly kind: FindingKind;
  /** The rule (a repair) or the reason (a refusal). */
  readonly name: string;
  /** Where: the JSON Pointer, array positions as `*`. */
  readonly parameter: string;
  /** How many times it was seen (lines of a log, calls of an audit log). */
  count: number;
  /** Of the calls an audit log recorded, how many it was seen in. */
  inCalls: number;
  /** One example (`"7" → 7`, or a refusal's message), when values were recorded. */
  example: string | undefined;
}

/** What became of the calls of one tool. */
export interface ToolSummary {
  readonly tool: string;
  /** Calls an audit log recorded (a `--log` records only changes, refusals and rejections). */
  calls: number;
  /** Those calls by outcome. */
  readonly outcomes: Map<string, number>;
  /** Calls the gateway or proxy answered itself (audit outcome `refused`, log `rejection`). */
  rejections: number;
  /** One rejection's message, when recorded. */
  rejection: string | undefined;
  /** By kind, name and parameter. */
  readonly findings: Map<string, Finding>;
}

/** Everything the logs said. */
export interface RepairReport {
  readonly tools: Map<string, ToolSummary>;
  /** Lines read, by what they were. */
  readonly lines: { audit: number; log: number; skipped: number };
  readonly files: readonly string[];
}

/** A line that could not be read: where, and why. */
export interface Skipped {
  readonly file: string;
  readonly line: number;
  readonly why: string;
}

/** An unreadable file, named with the system's code. */
export class UnreadableLog extends Error {
  constructor(readonly file: string, readonly code: string) {
    super(`${file}: cannot read the file (${code})`);
    this.name = 'UnreadableLog';
  }
}

const EXAMPLE_LENGTH = 200;

/** Reads `files` in order; each skipped line is told to `skipped`. */
export async function readLogs(files: readonly string[], skipped: (line: Skipped) => void): Promise<RepairReport> {
  const report: RepairReport = { tools: new Map(), lines: { audit: 0, log: 0, skipped: 0 }, files };
  for (const file of files) {
    let number = 0;
    try {
      for await (const text of createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity })) {
        number++;
        if (text.trim() === '') continue;
        const why = readLine(report, text);
        if (why === undefined) continue;
        report.lines.skipped++;
        skipped({ file, line: number, why });
      }
    } catch (error) {
      throw new UnreadableLog(file, (error as NodeJS.ErrnoException).code ?? 'error');
    }
  }
  return report;
}

/** Adds one line to the report; returns why it was skipped, if it was. */
function readLine(report: RepairReport, text: string): string | undefined {
  let line: unknown;
  try {
    line = JSON.parse(text);
  } catch {
    return 'not JSON';
  }
  if (typeof line !== 'object' || line === null || Array.isArray(line)) return 'not a JSON object';
  const entry = line as Record<string, unknown>;
  if (typeof entry['tool'] !== 'string') return 'no "tool" string';
  if (typeof entry['outcome'] === 'string') return readAudit(report, entry);
  if (entry['kind'] === 'change' || entry['kind'] === 'refusal' || entry['kind'] === 'rejection') return readLogEntry(report, entry);
  return 'neither an audit line (no "outcome") nor a log line (no "kind")';
}

/** One audit line: one call, its changes and refusals. */
function readAudit(report: RepairReport, entry: Record<string, unknown>): string | undefined {
  const changes = entry['changes'] ?? [];
  const refusals = entry['refusals'] ?? [];
  if (!Array.isArray(changes) || !changes.every((change) => isNamed(change, 'rule'))) return '"changes" is not a list of {path, rule}';
  if (!Array.isArray(refusals) || !refusals.every((refusal) => isNamed(refusal, 'reason'))) return '"refusals" is not a list of {path, reason}';
  report.lines.audit++;
  const tool = summaryOf(report, entry['tool'] as string);
  const outcome = entry['outcome'] as string;
  tool.calls++;
  tool.outcomes.set(outcome, (tool.outcomes.get(outcome) ?? 0) + 1);
  if (outcome === 'refused') rejected(tool, entry['answer']);
  // A finding counts once per call, however many array items it touched.
  const seen = new Set<Finding>();
  for (const change of changes as Record<string, unknown>[]) seen.add(find(tool, 'repair', change['rule'] as string, change['path'] as string, exampleOf(change)));
  for (const refusal of refusals as Record<string, unknown>[]) seen.add(find(tool, 'refusal', refusal['reason'] as string, refusal['path'] as string, messageOf(refusal)));
  for (const finding of seen) {
    finding.count++;
    finding.inCalls++;
  }
  return undefined;
}

/** One `--log` line: a change, a refusal or a rejection. */
function readLogEntry(report: RepairReport, entry: Record<string, unknown>): string | undefined {
  const kind = entry['kind'];
  if (kind !== 'rejection' && !isNamed(entry, kind === 'change' ? 'rule' : 'reason')) return `a ${String(kind)} without its path and ${kind === 'change' ? 'rule' : 'reason'}`;
  report.lines.log++;
  const tool = summaryOf(report, entry['tool'] as string);
  if (kind === 'rejection') rejected(tool, entry['message']);
  else if (kind === 'change') find(tool, 'repair', entry['rule'] as string, entry['path'] as string, exampleOf(entry)).count++;
  else find(tool, 'refusal', entry['reason'] as string, entry['path'] as string, messageOf(entry)).count++;
  return undefined;
}

function summaryOf(report: RepairReport, name: string): ToolSummary {
  let tool = report.tools.get(name);
  if (tool === undefined) report.tools.set(name, (tool = { tool: name, calls: 0, outcomes: new Map(), rejections: 0, rejection: undefined, findings: new Map() }));
  return tool;
}

function rejected(tool: ToolSummary, message: unknown): void {
  tool.rejections++;
  if (typeof message === 'string') tool.rejection ??= clip(message);
}

/** The finding of `kind` and `name` at `path`, made the first time; its example kept from the first line that has one. */
function find(tool: ToolSummary, kind: FindingKind, name: string, path: string, example: string | undefined): Finding {
  const parameter = parameterOf(path);
  const key = JSON.stringify([kind, name, parameter]);
  let finding = tool.findings.get(key);
  if (finding === undefined) tool.findings.set(key, (finding = { kind, name, parameter, count: 0, inCalls: 0, example: undefined }));
  finding.example ??= example;
  return finding;
}

/** A JSON Pointer with its array positions (segments of digits) as `*`: the parameter a schema author knows. */
function parameterOf(path: string): string {
  return path.replace(/\/\d+(?=\/|$)/g, '/*');
}

/** Whether `value` is an object with a string `path` and a string `name`. */
function isNamed(value: unknown, name: string): boolean {
  return typeof value === 'object' && value !== null && typeof (value as Record<string, unknown>)['path'] === 'string' && typeof (value as Record<string, unknown>)[name] === 'string';
}

/** `from → to` of a change, when its values were recorded. */
function exampleOf(change: Record<string, unknown>): string | undefined {
  const { from, to } = change;
  return typeof from === 'string' && typeof to === 'string' ? clip(`${from} → ${to === '' ? '(removed)' : to}`) : undefined;
}

function messageOf(refusal: Record<string, unknown>): string | undefined {
  return typeof refusal['message'] === 'string' ? clip(refusal['message']) : undefined;
}

/** `text` cut to `EXAMPLE_LENGTH` characters (never inside a surrogate pair). */
function clip(text: string): string {
  if (text.length <= EXAMPLE_LENGTH) return text;
  const end = /[\uD800-\uDBFF]/.test(text.charAt(EXAMPLE_LENGTH - 2)) ? EXAMPLE_LENGTH - 2 : EXAMPLE_LENGTH - 1;
  return `${text.slice(0, end)}…`;
}
