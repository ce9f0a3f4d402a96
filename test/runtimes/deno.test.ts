/** The package in Deno (`npm run test:deno`): see `other-runtime.ts`. */
import { binary, describeRuntime } from './other-runtime.js';

const deno = binary('deno');
// The library needs no permission; the CLI, the proxy and the MCP scripts start processes.
describeRuntime({ name: 'deno', version: 'deno 2.', library: [deno, 'run'], all: [deno, 'run', '-A'] });
