/**
 * One plain-text message a model can act on: for each object where something is wrong, the
 * parameters the schema expects (names, types, required markers, across combinator branches),
 * the undeclared keys it sent with the names it probably meant, and every other error in plain
 * words with the path and the value sent. Bounded in size.
 */
import { hasOwn } from '../json/objects.js';
import { isContainer } from '../json/walk-values.js';
import { ALL_TYPES, typeNames } from '../schema/keywords.js';
import { previewArgs } from '../json/lossless.js';
import { planOrNull, type PlanNode } from '../schema/plan.js';
import { escapeToken, parsePointer, valueAtPointer } from '../json/pointer.js';
import type { UndeclaredKey } from './undeclared.js';

/** One validation error, in the shape every validator here reports. */
export interface ValidationIssue {
  /** JSON Pointer to the value (`""` for the arguments as a whole). */
  readonly path: string;
  /** The keyword that failed (`type`, `required`, `enum`, …), or `"schema"` when unknown. */
  readonly keyword: string;
  /** What is wrong, in plain words (`must be integer`). */
  readonly message: string;
  /** Keyword details from the validator, when it gives them. */
  readonly params?: Readonly<Record<string, unknown>>;
}

/** What a model-facing message is made of. */
export interface ProblemReport {
  readonly toolName?: string | undefined;
  readonly args: unknown;
  readonly schema: unknown;
  readonly errors: readonly ValidationIssue[];
  readonly undeclared: readonly UndeclaredKey[];
}

/** Upper bound on the length of a message, in characters. */
const MAX_MESSAGE_CHARS = 4000;
const MAX_PARAMETERS = 30;
const MAX_ERRORS = 12;
const MAX_VALUE_CHARS = 80;
const MAX_ENUM_SHOWN = 8;

/** How every model-facing message begins: `Invalid parameters for tool "search"`. */
export function invalidParameters(toolName: string | undefined): string {
  return `Invalid parameters${toolName === undefined ? '' : ` for tool ${JSON.stringify(toolName)}`}`;
}

/**
 * Writes the message for a failed call.
 *
 * @example
 * // Invalid parameters for tool "search": the parameter names do not match the tool schema.
 * // Expected parameters: q (string, required). You sent undeclared key(s): query (did you mean q?).
 */
export function describeProblems(report: ProblemReport): string {
  const { toolName, args, errors, undeclared } = report;
  const root = planOrNull(report.schema);
  const summary = undeclared.length > 0 ? 'the parameter names do not match the tool schema' : 'the arguments do not match the tool schema';
  const lines = [`${invalidParameters(toolName)}: ${summary}.`];

  const missing = errors.filter((error) => error.keyword === 'required');
  const objects = new Set<string>([
    ...undeclared.map((key) => parentOf(key.path)),
    ...missing.map((error) => error.path),
  ]);
  const byObject = new Map<string, UndeclaredKey[]>();
  for (const key of undeclared) {
    const parent = parentOf(key.path);
    const sent = byObject.get(parent);
    if (sent === undefined) byObject.set(parent, [key]);
    else sent.push(key);
  }
  const required = new Map<string, ValidationIssue[]>();
  for (const error of missing) {
    const same = required.get(error.path);
    if (same === undefined) required.set(error.path, [error]);
    else same.push(error);
  }
  let written = lines[0]!.length;
  for (const path of [...objects].sort((a, b) => a.length - b.length || a.localeCompare(b))) {
    // Past the bound, what follows would be cut from the message anyway.
    if (written >= MAX_MESSAGE_CHARS) break;
    const node = root === null ? null : nodeAt(root, args, path);
    const parts = [`${path === '' ? 'Expected' : `At ${path}, expected`} parameters: ${node === null ? '(not known)' : listParameters(node)}.`];
    const sent = byObject.get(path) ?? [];
    if (sent.length > 0) {
      const keys = sent.map(({ key, suggestion }) => (suggestion === undefined ? key : `${key} (did you mean ${suggestion}?)`));
      parts.push(`You sent undeclared key(s): ${keys.join(', ')}.`);
      if (sent.some((key) => key.bySpelling === true)) parts.push('(Too many names to compare: only differences of case, spaces, _, . and - were looked for.)');
    }
    const absent = (required.get(path) ?? []).map((error) => missingName(error)).filter(Boolean);
    if (absent.length > 0) parts.push(`Missing required: ${absent.join(', ')}.`);
    lines.push(parts.join(' '));
    written += lines[lines.length - 1]!.length + 1;
  }

  const covered = new Set(undeclared.map((key) => key.path));
  const others = errors.filter((error) => error.keyword !== 'required' && !coveredByUndeclared(error, covered));
  const described = [...new Set(others.map((error) => describeError(error, args)))];
  lines.push(...described.slice(0, MAX_ERRORS));
  if (described.length > MAX_ERRORS) lines.push(`… and ${described.length - MAX_ERRORS} more error(s).`);
  lines.push('Correct the parameters and call the tool again.');
  const message = lines.join('\n');
  return message.length <= MAX_MESSAGE_CHARS ? message : message.slice(0, MAX_MESSAGE_CHARS - 1) + '…';
}

/** `listParameters` per node: a message about many objects of one schema lists each kind once. */
const parameterLists = new WeakMap<PlanNode, string>();

/** `q (string, required), limit (integer)`: the declared parameters of an object node. */
function listParameters(node: PlanNode): string {
  let list = parameterLists.get(node);
  if (list === undefined) parameterLists.set(node, (list = describeParameters(node)));
  return list;
}

function describeParameters(node: PlanNode): string {
  const { declared } = node.shape();
  if (declared.length === 0) return '(none declared)';
  const required = node.required();
  const shown = declared.slice(0, MAX_PARAMETERS).map((name) => {
    const facts = [describeType(node.child(name)), required.includes(name) ? 'required' : ''].filter(Boolean);
    return facts.length === 0 ? name : `${name} (${facts.join(', ')})`;
  });
  if (declared.length > MAX_PARAMETERS) shown.push(`… and ${declared.length - MAX_PARAMETERS} more`);
  return shown.join(', ');
}

/** `string`, `integer or null`, `array of integer`, `one of "a", "b"`, or `''` when unknown. */
function describeType(node: PlanNode | null): string {
  if (node === null) return '';
  for (const member of node.members) {
    const values = hasOwn(member, 'enum') ? member['enum'] : undefined;
    if (Array.isArray(values) && values.length > 0) {
      const shown = values.slice(0, MAX_ENUM_SHOWN).map((value) => textOf(value));
      return `one of ${shown.join(', ')}${values.length > MAX_ENUM_SHOWN ? ', …' : ''}`;
    }
  }
  if (node.accept === ALL_TYPES) return '';
  const types = typeNames(node.accept);
  if (types.length === 1 && types[0] === 'array') {
    const items = describeType(node.item(Number.MAX_SAFE_INTEGER));
    return items === '' ? 'array' : `array of ${items}`;
  }
  return types.join(' or ');
}

function describeError(error: ValidationIssue, args: unknown): string {
  const where = error.path === '' ? 'arguments' : error.path;
  const sent = valueAtPointer(args, error.path);
  const text = sent === undefined ? '' : textOf(sent);
  const tail = text === '' ? '' : `; you sent ${text}`;
  return `${where}: ${error.message}${tail}.`;
}

function missingName(error: ValidationIssue): string {
  const name = error.params?.['missingProperty'];
  if (typeof name === 'string') return name;
  const match = /'([^']*)'|"([^"]*)"/.exec(error.message);
  return match?.[1] ?? match?.[2] ?? '';
}

function coveredByUndeclared(error: ValidationIssue, covered: ReadonlySet<string>): boolean {
  const extra = error.params?.['additionalProperty'] ?? error.params?.['unevaluatedProperty'];
  if (typeof extra !== 'string') return false;
  return covered.has(`${error.path}/${escapeToken(extra)}`);
}

/**
 * The plan node at a JSON Pointer, following the arguments to tell indices from keys; `null` when
 * the path is no pointer (a validator's own path format) or leads where the plan does not.
 */
function nodeAt(root: PlanNode, args: unknown, path: string): PlanNode | null {
  const tokens = parsePointer(path);
  if (tokens === undefined) return null;
  let node: PlanNode | null = root;
  let current = args;
  for (const token of tokens) {
    if (node === null) return null;
    const step = Array.isArray(current) ? Number(token) : token;
    node = node.at(step);
    current = isContainer(current) ? (current as Record<string | number, unknown>)[step] : undefined;
  }
  return node;
}

function parentOf(path: string): string {
  return path.slice(0, path.lastIndexOf('/'));
}

/**
 * The JSON text of a value cut to `MAX_VALUE_CHARS` (only that much is written, whatever its size
 * or depth), or `''` when it cannot be written (it contains itself, or reading it throws).
 */
function textOf(value: unknown): string {
  try {
    return previewArgs(value, MAX_VALUE_CHARS);
  } catch {
    return '';
  }
}
