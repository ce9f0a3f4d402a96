/**
 * The fixture tables run through the built entry points, one plain-JSON outcome per row, so the
 * same rows can be run in Node, in a browser, in Deno, in Bun and in workerd and compared row for
 * row. Plain JavaScript with no import of its own: each runtime hands in the three entry modules
 * (`schema-coerce`, `schema-coerce/render`, `schema-coerce/validate`) as loaded there.
 *
 * An outcome is what each table states: the dispatched text, the changes and refusals, the
 * pipeline's verdict and message, the parse error's reason, the rendered schema, the validator's
 * verdict. Errors are outcomes too (their class and message), so a runtime that throws where Node
 * does not is a difference, not a crash of the run.
 */

/** What `run()` did: its value, or the class, message and `truncated` flag of what it threw. */
function attempt(run) {
  try {
    return { value: run() };
  } catch (error) {
    return { threw: { name: error?.name ?? typeof error, message: String(error?.message ?? error), truncated: error?.truncated } };
  }
}

const refusals = (list) => list.map(({ path, reason, expected, message }) => ({ path, reason, expected, message }));

/** The pipeline's whole answer, its lossless arguments written back to text. */
function prepared(index, call) {
  return {
    ok: call.ok,
    json: call.json,
    display: call.display,
    args: call.args === undefined ? undefined : index.stringifyArgs(call.args),
    changes: call.changes,
    refusals: refusals(call.refusals),
    errors: call.errors,
    undeclared: call.undeclared,
    message: call.message,
    parseError: call.parseError && { reason: call.parseError.reason, truncated: call.parseError.truncated, message: call.parseError.message },
  };
}

/**
 * A coercion row (`input` text against `schema`): every route of the root entry, and the pipeline
 * with Ajv validation (a pattern that could backtrack without bound, `^(a+)+$` in `schema/`, skips
 * validation, saying why, in every runtime).
 */
function coercionRow(lib, row, options) {
  const { index } = lib;
  const text = attempt(() => index.coerceArgsJson(row.input, row.schema, options));
  const args = attempt(() => index.parseArgs(row.input, { repair: true }));
  const object = args.value === undefined ? undefined : attempt(() => {
    const result = index.coerceArgs(args.value, row.schema, options);
    return { value: index.stringifyArgs(result.value), changes: result.changes, refusals: refusals(result.refusals) };
  });
  return {
    text,
    object,
    display: args.value === undefined ? undefined : attempt(() => index.formatToolCall('tool', args.value, row.schema, options)),
    call: prepared(index, index.prepareToolCall(row.input, row.schema, { ...options, toolName: 'tool' })),
    validated: prepared(index, index.prepareToolCall(row.input, row.schema, { ...options, toolName: 'tool', validate: lib.validate.validateArgs, rejectUndeclared: true })),
  };
}

/** One row of `file`, by what its table is about. */
function outcome(lib, file, row) {
  if (file === 'render/normalize.json') return attempt(() => lib.render.normalizeSchemaForModel(row.schema));
  if (file === 'render/render.json') return attempt(() => lib.render.renderSchemaForModel(row.schema, row.options));
  if (file === 'validate/undeclared-keys.json') {
    return attempt(() => lib.validate.findUndeclaredKeys(lib.index.parseArgs(row.input), row.schema));
  }
  if (file === 'validate/validate-args.json') {
    return attempt(() => {
      const result = lib.validate.validateArgs(lib.index.parseArgs(row.input), row.schema, row.options);
      return { ...result, errors: result.errors?.map(({ path, keyword, message }) => ({ path, keyword, message })) };
    });
  }
  // The wild and reader tables run lenient unless a row says otherwise, as their own suites do.
  const options = row.options ?? (file.startsWith('wild/') || file.startsWith('reader/') ? { lenient: true } : undefined);
  return coercionRow(lib, row, options);
}

/**
 * Every row of every table, as `{ file, name, outcome }` with `outcome` plain JSON.
 *
 * @param {{ index: any, render: any, validate: any }} lib - The three entry modules.
 * @param {{ file: string, rows: any[] }[]} tables - The tables, as `fixtures/` holds them (`file` relative to it).
 * @returns {{ file: string, name: string, outcome: unknown }[]}
 */
export function runFixtureTables(lib, tables) {
  return tables.flatMap(({ file, rows }) =>
    rows.map((row) => ({ file, name: row.name, outcome: JSON.parse(JSON.stringify(outcome(lib, file, row)) ?? 'null') })),
  );
}
