/** The `schema-coerce` command: runs the CLI and sets the exit status. */
import { main, UsageError } from './adapters/cli/cli.js';

main(process.argv.slice(2)).then(
  (status) => {
    process.exitCode = status;
  },
  (error: unknown) => {
    const [command, message] = error instanceof UsageError ? [error.command, error.detail] : ['schema-coerce', `unexpected error: ${String(error)}`];
    process.stderr.write(`${command}: ${message.replace(/\s+/g, ' ')}\n`);
    process.exitCode = error instanceof UsageError ? 2 : 1;
  },
);
