/**
 * The client wrapper's `results` option: each `tools/call` response is repaired against the
 * tool's `outputSchema` (`repairToolResult`) as it arrives, before the SDK validates it.
 */
import type { ArgsValidator, IntegerRange } from '../../index.js';
import { repairToolResult, type RepairedToolResult } from '../../report/tool-result.js';
import { loadValidateArgs } from '../shared/load-validator.js';
import type { ToolSchemas } from '../shared/tool-schemas.js';
import type { WireMessage } from './sdk-types.js';

export type { RepairedToolResult };

/** How results are repaired, and where each repair is reported. */
export interface ResultSettings {
  /** The arguments' `validate` option: a function judges error results too; else the built-in validator does. */
  readonly validate?: boolean | ArgsValidator | undefined;
  readonly integerRange?: IntegerRange | undefined;
  readonly report: (tool: string, result: RepairedToolResult) => void;
}

/** Calls remembered at most, awaiting their responses (the oldest is forgotten past it). */
const MAX_CALLS = 1024;

/** The results of one client's tool calls, repaired as their responses arrive. */
export class ResultRepairs {
  /** `tools/call` requests sent and not yet answered: id → tool name. */
  private readonly calls = new Map<unknown, string>();
  private readonly schemas: ToolSchemas;
  private readonly settings: ResultSettings;
  private validator: ArgsValidator | undefined;

  constructor(schemas: ToolSchemas, settings: ResultSettings) {
    this.schemas = schemas;
    this.settings = settings;
  }

  /**
   * Loads the validator that judges error results (`validate` when it is a function, else the
   * built-in one), so that responses are repaired as they arrive, without waiting.
   *
   * @throws {MissingPeerError} (as a rejection) When the built-in validator's `ajv` is not installed.
   */
  async ready(): Promise<void> {
    const { validate } = this.settings;
    this.validator ??= typeof validate === 'function' ? validate : await loadValidateArgs();
  }

  /** A message the client sends: a `tools/call` is remembered until its response. */
  sent(message: WireMessage): void {
    const name = message.params?.name;
    if (message.method !== 'tools/call' || message.id === undefined || typeof name !== 'string') return;
    this.calls.set(message.id, name);
    if (this.calls.size > MAX_CALLS) this.calls.delete(this.calls.keys().next().value);
  }

  /** A message that arrived: the response to a remembered call, repaired; anything else as it is. */
  received(message: WireMessage): WireMessage {
    if (message.id === undefined || message.method !== undefined) return message;
    const tool = this.calls.get(message.id);
    if (tool === undefined) return message;
    this.calls.delete(message.id);
    const schema = this.schemas.output(tool);
    if (schema === undefined || message.result === undefined) return message;
    const { integerRange } = this.settings;
    const repaired = repairToolResult(message.result, schema, {
      toolName: tool,
      ...(this.validator === undefined ? {} : { validate: this.validator }),
      ...(integerRange === undefined ? {} : { integerRange }),
    });
    this.settings.report(tool, repaired);
    return repaired.result === message.result ? message : { ...message, result: repaired.result };
  }
}
