/** What the agent-framework adapter tests share: the scripted calls, the tool, the strict server. */
import { join } from 'node:path';
import { z } from 'zod';

/** What the scripted models send: strings where the schema wants an integer, an array, a boolean. */
export const STRINGLY = '{"line":"5","tags":"urgent","deleted":"false"}';
/** What the tool must receive for `STRINGLY`. */
export const REPAIRED: object = { line: 5, tags: ['urgent'], deleted: false };
/** Arguments nothing can repair. */
export const HOPELESS = '{"line":"five"}';
/** What the strict MCP server's `goto` must receive for `{"line":"7"}`. */
export const MCP_STRINGLY = '{"line":"7"}';
export const MCP_REPAIRED: object = { line: 7 };

/** The tool's parameters as zod: `line` an integer (required), `tags` strings, `deleted` a boolean. */
export const gotoZod: z.ZodObject<{ line: z.ZodNumber; tags: z.ZodOptional<z.ZodArray<z.ZodString>>; deleted: z.ZodOptional<z.ZodBoolean> }> = z.object({ line: z.number().int(), tags: z.array(z.string()).optional(), deleted: z.boolean().optional() });

/** The same parameters as JSON Schema. */
export const gotoJsonSchema: { type: 'object'; properties: Record<string, object>; required: string[] } = {
  type: 'object',
  properties: { line: { type: 'integer' }, tags: { type: 'array', items: { type: 'string' } }, deleted: { type: 'boolean' } },
  required: ['line'],
};

/** The command line of the strict Node MCP server (`test/peers/strict-node-server.ts`). */
export const STRICT_SERVER: { command: string; args: string[] } = { command: process.execPath, args: ['--import', 'tsx', join(import.meta.dirname, '..', 'peers', 'strict-node-server.ts')] };
