/**
 * The seeded fuzz of the proxy (test/_helpers/fuzz-proxy.ts), small: two seeds of a few hundred
 * lines in `npm test`. The long run is `npm run fuzz:proxy -- --seed N --lines 5000`.
 */
import { expect, test } from 'vitest';
import { fuzzProxy } from './_helpers/fuzz-proxy.js';

const LINES = Number(process.env['FUZZ_LINES'] ?? '600');

test.each([1, 2])('seed %i: every byte both ways as promised', async (seed) => {
  const result = await fuzzProxy({ seed, lines: LINES, longest: 1 << 20 });
  expect(result.differences).toEqual([]);
  expect(result.clientBytes).toBeGreaterThan(LINES * 50);
});
