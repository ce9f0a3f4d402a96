/**
 * `schema-coerce proxy`'s `--url` and `--header` at their edges (the common cases are in
 * proxy-inprocess.test.ts): a URL holding only a password, and header names written with white
 * space around them.
 */
import { describe, expect, test } from 'vitest';
import { targetHeaders, targetUrl } from '../src/adapters/proxy/http-target.js';

describe('--url and --header at their edges', () => {
  test('a URL with a password and no user name is refused as credentials too', () => {
    expect(() => targetUrl('http://:sk-secret@127.0.0.1/mcp')).toThrow("--url must not hold credentials (user:password@): fetch cannot send them; give them as --header 'Authorization: …' instead");
    expect(targetUrl('http://127.0.0.1:8080/mcp').href).toBe('http://127.0.0.1:8080/mcp');
  });

  test('white space around a header name is not part of it', () => {
    expect(targetHeaders([' X-Key : v1', 'Authorization\t: Bearer t'])).toEqual({ 'x-key': 'v1', authorization: 'Bearer t' });
  });
});
