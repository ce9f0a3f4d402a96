/**
 * The `--url` and `--header` options of `schema-coerce proxy`, checked before anything is sent:
 * an http(s) URL without credentials (`fetch` refuses a URL holding `user:password@`), and headers
 * as `Name: value` with values a request can carry. A refusal names the option, never a secret.
 */
import { shownUrlText } from './secrets.js';

/** A `--url` or `--header` the proxy cannot use; the message shows no secret. */
export class TargetError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TargetError';
  }
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** What a header value may not hold: a line break or NUL (fetch refuses them). */
const UNSENDABLE = /[\r\n\0]/;

/**
 * The endpoint `text` names.
 *
 * @throws {TargetError} When it is not an http(s) URL, or holds credentials.
 */
export function targetUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new TargetError(`--url ${JSON.stringify(shownUrlText(text))} is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TargetError(`--url must be http or https, not ${url.protocol}`);
  if (url.username !== '' || url.password !== '') {
    throw new TargetError("--url must not hold credentials (user:password@): fetch cannot send them; give them as --header 'Authorization: …' instead");
  }
  return url;
}

/**
 * The `--header` options (`Name: value`) and the `--header-env` options (`Name: VARIABLE`, the
 * value read from the environment, so it is not in the command line `ps` shows) as fields by
 * lower-case name, the `--header-env` ones over the others.
 *
 * @throws {TargetError} When one is not `Name: value` or its value cannot be sent; the message
 *   says which (by its place), never its value.
 */
export function targetHeaders(headers: readonly string[], fromEnv: readonly string[] = [], env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const fields: Record<string, string> = {};
  const add = (header: string, which: string, valueOf: (text: string, name: string) => string): void => {
    const colon = header.indexOf(':');
    const name = colon === -1 ? '' : header.slice(0, colon).trim();
    if (!TOKEN.test(name)) throw new TargetError(`${which} must be 'Name: ${which.startsWith('--header-env') ? 'VARIABLE' : 'value'}' (its text is not shown: it may hold a secret)`);
    const value = valueOf(header.slice(colon + 1).trim(), name);
    if (UNSENDABLE.test(value)) throw new TargetError(`${which} (${name}) has a line break or NUL in its value, which HTTP cannot carry`);
    fields[name.toLowerCase()] = value;
  };
  headers.forEach((header, index) => add(header, `--header number ${index + 1}`, (value) => value));
  fromEnv.forEach((header, index) =>
    add(header, `--header-env number ${index + 1}`, (variable, name) => {
      const value = env[variable];
      if (value === undefined || value === '') throw new TargetError(`--header-env number ${index + 1} (${name}): the environment variable ${JSON.stringify(variable)} is not set`);
      return value.trim();
    }),
  );
  return fields;
}
