/** What the SDK v2 adapter tests share: the protocol eras a v2 client can ask for, and reading a tool result. */
import type { ProtocolEra } from '@modelcontextprotocol/client';

/** A v2 client's `versionNegotiation.mode`. */
export type Mode = 'legacy' | 'auto' | { pin: string };

/** The eras, as a client asks for them: the label, the client's negotiation mode, the era it must get. */
export const ERAS: [string, Mode, ProtocolEra][] = [
  ['2025 era (initialize)', 'legacy', 'legacy'],
  ['2026-07-28, negotiated', 'auto', 'modern'],
  ['2026-07-28, pinned', { pin: '2026-07-28' }, 'modern'],
];

/** The text of a tool result's first content block. */
export const text = (result: unknown): string => (result as { content: { text: string }[] }).content[0]!.text;

/** Whether this runtime writes exact literals through `JSON.rawJSON` (Node 21 and later). */
export const hasRawJSON: boolean = typeof (JSON as { rawJSON?: unknown }).rawJSON === 'function';
