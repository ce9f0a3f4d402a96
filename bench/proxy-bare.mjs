// The floor for any stdio proxy written in Node: a bare pass-through that spawns the server and
// pipes bytes both ways, reading nothing. Used by `npm run bench -- proxy`.
import { spawn } from 'node:child_process';

const [file, ...args] = process.argv.slice(2);
const child = spawn(file, args, { stdio: ['pipe', 'pipe', 'inherit'] });
process.stdin.pipe(child.stdin);
child.stdout.pipe(process.stdout);
child.on('close', (code) => (process.exitCode = code ?? 1));
