/**
 * Runs one hostile recipe in this process and prints `{ result, ms, mb }`: its summary, the
 * CPU time it took (user and system, so a loaded machine's waiting does not count: a blow-up
 * still does), and how far the process's peak resident memory rose while it ran.
 */
import { RECIPES } from './hostile.js';

const [name = '', params = '{}'] = process.argv.slice(2);
const recipe = RECIPES[name];
if (recipe === undefined) throw new Error(`no recipe ${name}`);
const before = process.resourceUsage().maxRSS;
const start = process.cpuUsage();
const result = recipe(JSON.parse(params) as Record<string, unknown>);
const spent = process.cpuUsage(start);
const ms = (spent.user + spent.system) / 1000;
const mb = (process.resourceUsage().maxRSS - before) / 1024;
process.stdout.write(JSON.stringify({ result, ms, mb }) + '\n');
