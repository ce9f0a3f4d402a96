/**
 * Loads `validateArgs` synchronously, for hooks that must not be asynchronous (Mastra rejects an
 * asynchronous Standard Schema). Only code that asks for validation needs `ajv` installed.
 */
import { createRequire } from 'node:module';
import type { ArgsValidator } from '../report/pipeline.js';

let loaded: ArgsValidator | undefined;

/** `validateArgs` from `schema-coerce/validate`, required once (this package's own CJS build). */
export function loadValidateArgsSync(): ArgsValidator {
  if (loaded !== undefined) return loaded;
  try {
    const require = createRequire(typeof __filename === 'string' ? __filename : import.meta.url);
    loaded = (require('schema-coerce/validate') as { validateArgs: ArgsValidator }).validateArgs;
    return loaded;
  } catch (error) {
    throw new Error(`[schema-coerce] validation needs the optional peer dependency ajv (npm install ajv): ${error instanceof Error ? error.message : String(error)}`);
  }
}
