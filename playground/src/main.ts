/**
 * The playground: a tool's schema and a model's arguments in, what schema-coerce would dispatch
 * out, with each change and refusal, the model-facing message and the render path's view. All of
 * it computed in the page by the library itself; the state lives in the URL fragment.
 * Every value shown is set as text (a shared link is someone else's input: never HTML).
 */
import { ArgsParseError, formatToolCall, parseArgs, prepareToolCall, type PreparedCall } from '../../src/index.js';
import { validateArgs } from '../../src/validate.js';
import { changedSpans } from './diff.js';
import { PRESETS } from './presets.js';
import { coerceOptions, decodeState, encodeState, RULES, type Rule, type State } from './state.js';
import './style.css';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const form = {
  schema: $<HTMLTextAreaElement>('schema'),
  args: $<HTMLTextAreaElement>('args'),
  tool: $<HTMLInputElement>('tool'),
  lenient: $<HTMLInputElement>('lenient'),
  validate: $<HTMLInputElement>('validate'),
  rejectUndeclared: $<HTMLInputElement>('reject-undeclared'),
  integerRange: $<HTMLSelectElement>('integer-range'),
  preset: $<HTMLSelectElement>('preset'),
  rules: $<HTMLFieldSetElement>('rules'),
};

function element(tag: string, text?: string, className?: string): HTMLElement {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className !== undefined) node.className = className;
  return node;
}

for (const rule of RULES) {
  const label = element('label', undefined, 'check');
  const box = document.createElement('input');
  box.type = 'checkbox';
  box.name = rule;
  box.dataset['rule'] = rule;
  label.append(box, element('code', rule));
  form.rules.append(label);
}
for (const preset of PRESETS) {
  const option = document.createElement('option');
  option.value = preset.id;
  option.textContent = preset.label;
  form.preset.append(option);
}

const ruleBoxes = () => [...form.rules.querySelectorAll<HTMLInputElement>('input[data-rule]')];

function readForm(): State {
  return {
    schema: form.schema.value,
    args: form.args.value,
    tool: form.tool.value,
    lenient: form.lenient.checked,
    off: ruleBoxes().filter((box) => !box.checked).map((box) => box.dataset['rule'] as Rule),
    validate: form.validate.checked,
    rejectUndeclared: form.rejectUndeclared.checked,
    integerRange: form.integerRange.value as State['integerRange'],
  };
}

function fillForm(state: State): void {
  form.schema.value = state.schema;
  form.args.value = state.args;
  form.tool.value = state.tool;
  form.lenient.checked = state.lenient;
  for (const box of ruleBoxes()) box.checked = !state.off.includes(box.dataset['rule'] as Rule);
  form.validate.checked = state.validate;
  form.rejectUndeclared.checked = state.rejectUndeclared;
  form.integerRange.value = state.integerRange;
  form.preset.value = PRESETS.find((preset) => JSON.stringify(preset.state) === JSON.stringify(state))?.id ?? '';
}

/** A table of `rows` under `columns`, or a line saying there are none. */
function table(id: string, columns: readonly string[], rows: readonly (readonly string[])[], none: string): void {
  const host = $(id);
  host.replaceChildren();
  if (rows.length === 0) {
    host.append(element('p', none, 'none'));
    return;
  }
  const grid = element('table');
  const head = element('tr');
  for (const column of columns) head.append(element('th', column));
  grid.append(element('thead'), element('tbody'));
  grid.firstChild!.appendChild(head);
  for (const row of rows) {
    const line = element('tr');
    row.forEach((cell, i) => {
      const td = element('td');
      td.dataset['label'] = columns[i]!;
      td.append(element(i === 0 || columns[i] === 'from' || columns[i] === 'to' ? 'code' : 'span', cell));
      line.append(td);
    });
    grid.lastChild!.appendChild(line);
  }
  host.append(grid);
}

function show(call: PreparedCall | undefined, state: State, schema: unknown, problem?: string): void {
  const verdict = $('verdict');
  const dispatched = $('dispatched');
  dispatched.replaceChildren();
  if (call === undefined) {
    verdict.textContent = problem ?? '';
    verdict.className = 'verdict bad';
  } else if (call.ok) {
    verdict.textContent = call.changes.length === 0 ? 'Dispatched as sent: nothing to repair' : `Dispatched, with ${call.changes.length} repair${call.changes.length === 1 ? '' : 's'}`;
    verdict.className = 'verdict good';
  } else {
    verdict.textContent = call.parseError?.truncated ? 'Refused: the arguments were cut off' : call.parseError ? 'Refused: the arguments are not JSON' : 'Refused: the call would not be dispatched';
    verdict.className = 'verdict bad';
  }
  if (call !== undefined && call.parseError === undefined) {
    const spans = changedSpans(state.args, call.json);
    for (const span of spans ?? [{ text: call.json, changed: false }]) dispatched.append(span.changed ? element('mark', span.text) : document.createTextNode(span.text));
  } else {
    dispatched.append(element('span', call?.parseError?.message ?? problem ?? '', 'none'));
  }
  table('changes', ['path', 'from', 'to', 'rule'], (call?.changes ?? []).map((c) => [c.path || '(root)', c.from, c.to, c.rule]), 'No changes.');
  table(
    'refusals',
    ['path', 'reason', 'why'],
    [
      ...(call?.refusals ?? []).map((r) => [r.path || '(root)', r.reason, r.message]),
      ...(call?.undeclared ?? []).map((u) => [u.path, 'undeclared', u.suggestion === undefined ? `${u.key} is not declared` : `${u.key} is not declared (did you mean ${u.suggestion}?)`]),
      ...(call?.errors ?? []).map((e) => [e.path || '(root)', e.keyword, e.message]),
    ],
    'No refusals.',
  );
  const message = $('message');
  message.textContent = call?.message ?? (call === undefined ? '' : 'None: the call goes through.');
  message.classList.toggle('none', call?.message === undefined);
  $('render').textContent = renderView(state, schema) ?? '';
}

/** The call as the render path shows it: `formatToolCall` on the model's arguments. */
function renderView(state: State, schema: unknown): string | undefined {
  const options = coerceOptions(state);
  try {
    return formatToolCall(state.tool, parseArgs(state.args, { repair: options.lenient !== false }), schema, options);
  } catch (error) {
    return error instanceof ArgsParseError ? `(not shown: ${error.message})` : undefined;
  }
}

function update(state: State): void {
  let schema: unknown;
  try {
    schema = JSON.parse(state.schema);
  } catch (error) {
    show(undefined, state, undefined, `The schema is not JSON: ${(error as Error).message}`);
    return;
  }
  form.rules.disabled = !state.lenient;
  show(prepareToolCall(state.args, schema, { ...coerceOptions(state), validate: state.validate ? validateArgs : false }), state, schema);
}

function onChange(): void {
  const state = readForm();
  history.replaceState(null, '', encodeState(state));
  form.preset.value = PRESETS.find((preset) => JSON.stringify(preset.state) === JSON.stringify(state))?.id ?? '';
  update(state);
}

document.querySelector('form')!.addEventListener('input', (event) => {
  if (event.target !== form.preset) onChange();
});
form.preset.addEventListener('change', () => {
  const preset = PRESETS.find((candidate) => candidate.id === form.preset.value);
  if (preset === undefined) return;
  fillForm(preset.state);
  $('source').textContent = preset.source;
  onChange();
});
$('copy').addEventListener('click', () => {
  void navigator.clipboard?.writeText(location.href).then(() => ($('copied').textContent = 'Link copied.'), () => ($('copied').textContent = 'Copy the address bar to share.'));
});
window.addEventListener('hashchange', () => {
  const state = decodeState(location.hash);
  fillForm(state);
  update(state);
});

const initial = decodeState(location.hash);
fillForm(initial);
update(initial);
document.body.dataset['ready'] = 'true';
