/**
 * Loads `validateArgs` on first use, so that only code that asks for validation needs `ajv`
 * (an optional peer dependency) installed: the MCP and framework adapters, the AI SDK helpers and
 * the CLI all work without it until validation is switched on.
 */
import { createRequire } from 'node:module';
import { MissingPeerError, type ArgsValidator } from '../../index.js';

let loading: Promise<ArgsValidator> | undefined;

/**
 * `validateArgs` from `schema-coerce/validate`, imported once. The one optional-validator loader:
 * the MCP adapters, the AI SDK helpers and the CLI all load through it.
 *
 * @throws {MissingPeerError} (as a rejection) When `ajv` cannot be loaded; the next call tries again.
 */
export function loadValidateArgs(): Promise<ArgsValidator> {
  loading ??= import('../../validate.js').then((module) => module.validateArgs).catch((error: unknown) => {
    loading = undefined;
    throw new MissingPeerError('validation', 'ajv', error);
  });
  return loading;
}

let loaded: ArgsValidator | undefined;

/**
 * `validateArgs` from `schema-coerce/validate`, required synchronously (this package's own CJS
 * build), for hooks that must not be asynchronous: Mastra rejects an asynchronous Standard Schema.
 *
 * @throws {MissingPeerError} When `ajv` cannot be loaded; the next call tries again.
 */
export function loadValidateArgsSync(): ArgsValidator {
  if (loaded !== undefined) return loaded;
  try {
    const require = createRequire(typeof __filename === 'string' ? __filename : import.meta.url);
    loaded = (require('schema-coerce/validate') as { validateArgs: ArgsValidator }).validateArgs;
    return loaded;
  } catch (error) {
    throw new MissingPeerError('validation', 'ajv', error);
  }
}
