/** The errors the `schema-coerce` command reports as one line on stderr, each with its exit status. */
import { SchemaCoerceError } from '../../index.js';

/**
 * An error the CLI reports as one line, `<command>: <detail>`, before it exits with `status`:
 * `command` names the command it concerns (`schema-coerce`, `schema-coerce proxy`).
 */
export class CommandError extends SchemaCoerceError {
  /** The command the error concerns, as its messages are prefixed: `schema-coerce proxy`. */
  readonly command: string;
  /** The exit status the CLI ends with. */
  readonly status: number;

  constructor(detail: string, command: string, status: number) {
    super(detail);
    this.name = 'CommandError';
    this.command = command;
    this.status = status;
  }
}

/**
 * A wrong invocation or unreadable input: the CLI prints its `detail` after the name of the
 * command it concerns (`schema-coerce`, `schema-coerce proxy`) and exits 2.
 */
export class UsageError extends CommandError {
  constructor(detail: string, command = 'schema-coerce') {
    super(detail, command, 2);
    this.name = 'UsageError';
  }
}
