/** What the subcommands' command lines share: whole-number flags, `host:port` addresses, the parse. */
import { UsageError } from './errors.js';

/** `host:port`: a host name, an IPv4 address or a bracketed IPv6 one, a colon, a port. */
export const LISTEN = '^(\\[[0-9a-fA-F:.]+\\]|[^:\\s]+):(\\d{1,5})$';

/** A whole number option, positive, times `unit`, as the option `key`. */
export function count(flag: string, value: string | undefined, key: string, unit: number): Record<string, number> {
  if (value === undefined) return {};
  if (!/^[1-9]\d{0,15}$/.test(value)) throw new UsageError(`${flag} must be a positive whole number, not ${JSON.stringify(value)}`);
  return { [key]: Number(value) * unit };
}

/** A `host:port` (`[::1]:8808` for IPv6) a flag gives; the brackets of an IPv6 host removed. */
export function listenAddress(flag: string, value: string): { host: string; port: number } {
  const match = new RegExp(LISTEN).exec(value);
  if (match === null || Number(match[2]) > 65_535) throw new UsageError(`${flag} ${JSON.stringify(value)} must be host:port`);
  return { host: match[1]!.replace(/^\[|\]$/g, ''), port: Number(match[2]) };
}

/** Runs `parse` (a command line's), a bad option becoming a usage error. */
export function parsed<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}
