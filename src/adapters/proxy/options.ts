/** What the proxy is told, and where its session sends what it forwards, answers and reports. */
import type { ArgsValidator, CoerceOptions } from '../../index.js';
import type { SchemaMaps, SharedSchemas } from '../shared/tool-schemas.js';
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
  /** Schemas shared with other sessions (the gateway's), so identical ones are compiled once. */
  readonly sharedSchemas?: SharedSchemas;
  /** What the session knows of the server's tools, when sessions share it (the gateway's sessionless requests of one caller); else its own. */
  readonly catalogue?: Catalogue;
}

/** The tools' schemas, and the tools asked about since the list last changed. */
export interface Catalogue extends SchemaMaps {
  readonly asked: Set<string>;
}

/** A catalogue with nothing in it yet. */
export function newCatalogue(): Catalogue {
  return { inputs: new Map(), outputs: new Map(), asked: new Set() };
}

/** One entry of the log: a change, a refusal or a rejection, with the tool it concerns. */
type Report = Record<string, unknown> & { kind: 'change' | 'refusal' | 'rejection'; tool: string };

/** Where the session sends what it forwards, answers and reports. */
export interface Wiring {
  /** One client message for the server, as pieces in order (its newline included when it had one). */
  toServer(pieces: readonly Piece[]): void;
  toClient(piece: Piece): void;
  report(entry: Report): void;
}
