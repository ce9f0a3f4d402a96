/**
 * Every row of `fixtures/wild` through every entry point (the harness: `_helpers/entrypoints.ts`).
 */
import { describeEntryPoints, wildRows } from './_helpers/entrypoints.js';

describeEntryPoints(wildRows(), { cli: 50, clean: 25 });
