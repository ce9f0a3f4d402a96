/** The `schema-coerce` command: runs the CLI and sets the exit status. */
import { main } from './adapters/cli/cli.js';
import { CommandError } from './adapters/cli/errors.js';

main(process.argv.slice(2)).then(
  (status) => {
    process.exitCode = status;
  },
  (error: unknown) => {
    // One line, never a stack trace: the command's own message, or what was thrown, named.
    const [command, message] = error instanceof CommandError ? [error.command, error.detail] : ['schema-coerce', `unexpected error: ${String(error)}`];
    process.stderr.write(`${command}: ${message.replace(/\s+/g, ' ')}\n`);
    process.exitCode = error instanceof CommandError ? error.status : 1;
  },
);
