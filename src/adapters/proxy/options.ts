/** What the proxy is told, and where its session sends what it forwards, answers and reports. */
import type { ArgsValidator, CoerceOptions } from '../../index.js';
import type { SchemaMaps, SharedSchemas } from '../shared/tool-schemas.js';

export type { SchemaMaps } from '../shared/tool-schemas.js';
import type { MessageId } from './message.js';
import type { Piece } from './outlet.js';

/** Options of the proxy, as the CLI reads them. */
export interface ProxyOptions extends CoerceOptions {
  /** Validate each call with this validator (the CLI's `--validate` loads `validateArgs`). */
  readonly validator?: ArgsValidator;
  readonly rejectUndeclared?: boolean;
  /** A file to append one JSON line to per change, refusal and rejection. */
  readonly log?: string;
  /** Report the same lines on stderr. */
  readonly verbose?: boolean;
  /** Report each call's changes and refusals to `Wiring.report` even with no log (the gateway's metrics and audit). */
  readonly reports?: boolean;
  /** Schemas shared with other sessions (the gateway's), so identical ones are compiled once. */
  readonly sharedSchemas?: SharedSchemas;
  /**
   * The tools' schemas, when sessions share them (the gateway's sessionless requests of one
   * caller); else the session's own. (What a session has asked the server about stays its own: a
   * session whose own listing is on its way has asked, and another must not take that as known.)
   */
  readonly catalogue?: SchemaMaps;
  /** Repair tool results against the tool's `outputSchema` (`--repair-results`; see `result-repair.ts`). */
  readonly repairResults?: boolean;
  /** Tells whether an error result's `structuredContent` matches the output schema (the CLI loads `validateArgs` when it can). */
  readonly resultValidator?: ArgsValidator;
}

/** The repair options among the proxy's: `lenient` and `integerRange`, only those given. */
export function coerceOptionsOf(options: ProxyOptions): CoerceOptions {
  return {
    ...(options.lenient === undefined ? {} : { lenient: options.lenient }),
    ...(options.integerRange === undefined ? {} : { integerRange: options.integerRange }),
  };
}

/** One entry of the log: a change, a refusal or a rejection, with the tool it concerns. */
type Report = Record<string, unknown> & { kind: 'change' | 'refusal' | 'rejection'; tool: string };

/** Where the session sends what it forwards, answers and reports. */
export interface Wiring {
  /** One client message for the server, as pieces in order (its newline included when it had one). */
  toServer(pieces: readonly Piece[]): void;
  toClient(piece: Piece): void;
  /** One report; `id` is the id of the call it concerns, when it concerns one. */
  report(entry: Report, id?: MessageId): void;
}
