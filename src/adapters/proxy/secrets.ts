/**
 * Secrets in what the proxy is told to reach: a `--url`'s query values and credentials, and
 * `--header` values. None of them is ever written into a message, to the client (and so to the
 * model) or to stderr: a URL is shown with its query values replaced by `***`, and any text that
 * reaches a message (an error from `fetch`, a status text) has every secret's occurrence replaced.
 */

/** What stands in for a secret in a message. */
const REDACTED = '***';
/** Secrets shorter than this are not searched for in free text (they would garble it); URLs show none. */
const SEARCHED_FROM = 4;

/** `url` as messages show it: no credentials, every query value `***`, no fragment. */
export function shownUrl(url: URL): string {
  const shown = new URL(url.href);
  shown.username = '';
  shown.password = '';
  shown.hash = '';
  const keys = [...shown.searchParams.keys()];
  shown.search = '';
  if (keys.length === 0) return shown.href;
  return `${shown.href}?${keys.map((key) => `${encodeURIComponent(key)}=${REDACTED}`).join('&')}`;
}

/**
 * A URL given on the command line as messages may show it before it is known to parse: the
 * credentials and everything from the query on are cut, wherever a URL starts in the text (a
 * `--url '<http://user:pass@host/>'` does not parse, and its password must not be shown).
 */
export function shownUrlText(text: string): string {
  const cut = text.search(/[?#]/);
  const head = cut === -1 ? text : `${text.slice(0, cut)}?${REDACTED}`;
  return head.replace(/:\/\/[^/]*@/g, `://${REDACTED}@`);
}

/** Replaces each secret of `url` and `headers` in the texts it is given. */
export class Redactor {
  private readonly secrets: string[];

  constructor(url: URL, headers: Readonly<Record<string, string>>) {
    const secrets = [...url.searchParams.values(), decodeURIComponent(url.username), decodeURIComponent(url.password), url.username, url.password, url.search.slice(1), ...Object.values(headers)];
    // Longest first, so a secret holding another is replaced whole.
    this.secrets = [...new Set(secrets.filter((secret) => secret.length >= SEARCHED_FROM))].sort((a, b) => b.length - a.length);
  }

  /** `text` with every secret replaced by `***`. */
  scrub(text: string): string {
    let scrubbed = text;
    for (const secret of this.secrets) scrubbed = scrubbed.split(secret).join(REDACTED);
    return scrubbed;
  }
}
