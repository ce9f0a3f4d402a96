/**
 * `v2-tools.ts` over stdio, both protocol eras (`serveStdio`: the 2026-07-28 revision to a client
 * that probes with `server/discover`, the 2025 handshake to one that sends `initialize`). Options
 * for `withServerArgCoercion` come from SCHEMA_COERCE_SERVER_OPTIONS (JSON); without it the
 * server is not wrapped.
 */
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { toolServer } from './v2-tools.js';

const given = process.env['SCHEMA_COERCE_SERVER_OPTIONS'];
serveStdio(() => toolServer(given === undefined ? undefined : (JSON.parse(given) as object)));
