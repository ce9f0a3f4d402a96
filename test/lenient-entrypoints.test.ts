/**
 * Every row of `fixtures/lenient` through every entry point (the harness: `_helpers/entrypoints.ts`):
 * the lenient rules, the shape rules and the gate's competing readings give one answer everywhere.
 */
import { describeEntryPoints, lenientRows } from './_helpers/entrypoints.js';

describeEntryPoints(lenientRows(), { cli: 20, clean: 30 });
