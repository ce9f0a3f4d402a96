/**
 * `npm run conformance -- <suite-dir>`: runs every schema and instance of the official JSON
 * Schema Test Suite (draft2020-12 and draft7, optional tests included) through schema-coerce.
 *
 * Each draft7 schema is given its `$schema`, as a real draft-07 tool schema carries it, so the
 * library reads it in that dialect. For each instance: nothing throws; integer mode keeps the
 * instance equal in value (only the spelling of numbers may change) and keeps its validity under
 * Ajv (valid stays valid, invalid stays invalid); lenient mode changes a valid instance no more
 * than integer mode does, valid as the suite's own `valid` flag says and as Ajv judges.
 * Prints the counts and exits 1 on any failure. Suite files are read losslessly, so a `1.0` in
 * the suite reaches the library as `1.0`.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import Ajv from 'ajv';
import Ajv2020 from 'ajv/dist/2020.js';
import { coerceArgs, coerceArgsJson, isLosslessNumber, parseArgs, stringifyArgs, toPlainNumbers } from '../src/index.js';

interface Group {
  readonly description: string;
  readonly schema: unknown;
  readonly tests: readonly { readonly description: string; readonly data: unknown; readonly valid: boolean }[];
}

interface Counts {
  groups: number;
  instances: number;
  judged: number;
  valid: number;
  validBySuite: number;
  changedInIntegerMode: number;
  changedInLenientMode: number;
  notCompiled: number;
  ajvThrew: number;
  failures: string[];
}

const DRAFTS = [
  { name: 'draft2020-12', dialect: undefined, ajv: () => new Ajv2020({ strict: false, logger: false, validateFormats: false }) },
  { name: 'draft7', dialect: 'http://json-schema.org/draft-07/schema#', ajv: () => new Ajv({ strict: false, logger: false, validateFormats: false }) },
] as const;

/** The schema with `$schema` naming its draft, unless it names one already (boolean schemas stay as they are). */
function inDialect(schema: unknown, dialect: string | undefined): unknown {
  if (dialect === undefined || typeof schema !== 'object' || schema === null || Array.isArray(schema) || '$schema' in schema) return schema;
  return { $schema: dialect, ...schema };
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).sort().flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : name.endsWith('.json') ? [path] : [];
  });
}

function remotesInto(ajv: Ajv | Ajv2020, remotes: string): void {
  if (!existsSync(remotes)) return;
  for (const path of filesUnder(remotes)) {
    const url = `http://localhost:1234/${relative(remotes, path).split('\\').join('/')}`;
    try {
      ajv.addSchema(JSON.parse(readFileSync(path, 'utf8')) as object, url);
    } catch {
      // A remote in another dialect: the refs to it stay unresolved, and Ajv says so per schema.
    }
  }
}

/** Only the spelling of numbers may differ between `before` and `after`. */
function sameValues(before: unknown, after: unknown): boolean {
  if (isLosslessNumber(before) && isLosslessNumber(after)) return Number(before.value) === Number(after.value) || before.value === after.value;
  if (Array.isArray(before)) return Array.isArray(after) && after.length === before.length && before.every((item, i) => sameValues(item, after[i]));
  if (typeof before === 'object' && before !== null) {
    if (typeof after !== 'object' || after === null) return false;
    const keys = Object.keys(before);
    return JSON.stringify(keys) === JSON.stringify(Object.keys(after)) && keys.every((key) => sameValues((before as Record<string, unknown>)[key], (after as Record<string, unknown>)[key]));
  }
  return before === after;
}

function runDraft(suite: string, draft: (typeof DRAFTS)[number]): Counts {
  const counts: Counts = { groups: 0, instances: 0, judged: 0, valid: 0, validBySuite: 0, changedInIntegerMode: 0, changedInLenientMode: 0, notCompiled: 0, ajvThrew: 0, failures: [] };
  const ajv = draft.ajv();
  remotesInto(ajv, join(suite, 'remotes'));
  for (const file of filesUnder(join(suite, 'tests', draft.name))) {
    const groups = parseArgs(readFileSync(file, 'utf8')) as Group[];
    for (const group of groups) {
      counts.groups++;
      const schema = inDialect(toPlainNumbers(group.schema), draft.dialect);
      let validate: ((data: unknown) => boolean) | undefined;
      try {
        validate = ajv.compile(schema as object);
      } catch {
        counts.notCompiled++;
      }
      for (const test of group.tests) {
        counts.instances++;
        const where = `${draft.name} ${relative(join(suite, 'tests'), file)} > ${group.description} > ${test.description}`;
        let integer: ReturnType<typeof coerceArgs>;
        let lenient: ReturnType<typeof coerceArgs>;
        const text = stringifyArgs(test.data);
        try {
          integer = coerceArgs(test.data, schema);
          lenient = coerceArgs(test.data, schema, { lenient: true });
          if (coerceArgsJson(text, schema) !== stringifyArgs(integer.value)) counts.failures.push(`${where}: the text path and the object path disagree`);
        } catch (error) {
          counts.failures.push(`${where}: threw ${error instanceof Error ? error.message : String(error)}`);
          continue;
        }
        if (integer.value !== test.data) counts.changedInIntegerMode++;
        const lenientWentFurther = stringifyArgs(lenient.value) !== stringifyArgs(integer.value);
        if (lenientWentFurther) counts.changedInLenientMode++;
        if (test.valid) counts.validBySuite++;
        if (test.valid && lenientWentFurther) {
          counts.failures.push(`${where}: lenient mode changed an instance the suite calls valid (${text} → ${stringifyArgs(lenient.value)})`);
        }
        if (!sameValues(test.data, integer.value)) counts.failures.push(`${where}: integer mode changed a value`);
        if (validate === undefined) continue;
        let validBefore: boolean;
        let validAfter: boolean;
        try {
          validBefore = validate(toPlainNumbers(test.data));
          validAfter = validate(toPlainNumbers(integer.value));
        } catch {
          counts.ajvThrew++;
          continue;
        }
        counts.judged++;
        if (validBefore) counts.valid++;
        if (validAfter !== validBefore) counts.failures.push(`${where}: integer mode changed the validity`);
        if (validBefore && stringifyArgs(lenient.value) !== stringifyArgs(integer.value)) {
          counts.failures.push(`${where}: lenient mode changed a valid instance (${text} → ${stringifyArgs(lenient.value)})`);
        }
      }
    }
  }
  return counts;
}

function main(): number {
  const suite = process.argv[2];
  if (suite === undefined || !existsSync(join(suite, 'tests'))) {
    process.stderr.write('usage: npm run conformance -- <path to a JSON-Schema-Test-Suite checkout (the folder holding tests/)>\n');
    return 2;
  }
  let failed = 0;
  for (const draft of DRAFTS) {
    if (!existsSync(join(suite, 'tests', draft.name))) continue;
    const counts = runDraft(suite, draft);
    failed += counts.failures.length;
    process.stdout.write(
      `${draft.name}: ${counts.groups} schemas, ${counts.instances} instances (${counts.validBySuite} valid by the suite); ${counts.judged} judged by Ajv (${counts.valid} valid), ` +
        `${counts.notCompiled} schemas Ajv could not compile, ${counts.ajvThrew} instances Ajv threw on; integer mode changed ${counts.changedInIntegerMode}, ` +
        `lenient mode went further on ${counts.changedInLenientMode} (all invalid ones); failures: ${counts.failures.length}\n`,
    );
    for (const failure of counts.failures.slice(0, 50)) process.stdout.write(`  FAIL ${failure}\n`);
  }
  process.stdout.write(failed === 0 ? 'conformance: ok\n' : `conformance: ${failed} failure(s)\n`);
  return failed === 0 ? 0 : 1;
}

process.exitCode = main();
