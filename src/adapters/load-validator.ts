/**
 * Loads `validateArgs` on first use, so that only code that asks for validation needs `ajv`
 * (an optional peer dependency) installed: the MCP adapters, the AI SDK helpers and the CLI all
 * work without it until validation is switched on.
 */
import { MissingPeerError, type ArgsValidator } from '../index.js';

let loading: Promise<ArgsValidator> | undefined;

/**
 * `validateArgs` from `schema-coerce/validate`, imported once. The one optional-validator loader:
 * the MCP adapters, the AI SDK helpers and the CLI all load through it.
 *
 * @throws {MissingPeerError} (as a rejection) When `ajv` cannot be loaded; the next call tries again.
 */
export function loadValidateArgs(): Promise<ArgsValidator> {
  loading ??= import('../validate.js').then((module) => module.validateArgs).catch((error: unknown) => {
    loading = undefined;
    throw new MissingPeerError('validation', 'ajv', error);
  });
  return loading;
}
