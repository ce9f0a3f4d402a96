/**
 * Runs one hostile recipe in this process and prints `{ result, ms, mb }`: its summary, the
 * time it took, and how far the process's peak resident memory rose while it ran.
 */
import { RECIPES } from './hostile.js';

const [name = '', params = '{}'] = process.argv.slice(2);
const recipe = RECIPES[name];
if (recipe === undefined) throw new Error(`no recipe ${name}`);
const before = process.resourceUsage().maxRSS;
const start = performance.now();
const result = recipe(JSON.parse(params) as Record<string, unknown>);
const ms = performance.now() - start;
const mb = (process.resourceUsage().maxRSS - before) / 1024;
process.stdout.write(JSON.stringify({ result, ms, mb }) + '\n');
