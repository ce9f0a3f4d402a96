/**
 * Loads `validateArgs` on first use, so that only code that asks for validation needs `ajv`
 * (an optional peer dependency) installed: the MCP adapters, the AI SDK helpers and the CLI all
 * work without it until validation is switched on.
 */
import type { ArgsValidator } from '../report/pipeline.js';

let loading: Promise<ArgsValidator> | undefined;

/** `validateArgs` from `schema-coerce/validate`, imported once. */
export function loadValidateArgs(): Promise<ArgsValidator> {
  loading ??= import('../validate.js').then((module) => module.validateArgs).catch((error: unknown) => {
    loading = undefined;
    throw new Error(`[schema-coerce] validation needs the optional peer dependency ajv (npm install ajv): ${error instanceof Error ? error.message : String(error)}`);
  });
  return loading;
}
