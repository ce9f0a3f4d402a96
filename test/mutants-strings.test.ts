/** The name normalisation that decides which model-sent keys are renames of declared ones. */
import { describe, expect, test } from 'vitest';
import { normalizeName } from '../src/json/strings.js';

describe('normalizeName', () => {
  test('lower-cases and drops _, -, dots and white space, runs of them included', () => {
    expect(normalizeName('thought_number')).toBe('thoughtnumber');
    expect(normalizeName('Thought-Number')).toBe('thoughtnumber');
    expect(normalizeName('thought.__ number')).toBe('thoughtnumber');
  });

  test('is lower case, not upper case: ß stays one letter, so STRASSE is no spelling of straße', () => {
    // Upper-casing folds ß into SS; the two names would then compare equal.
    expect(normalizeName('Straße')).toBe('straße');
    expect(normalizeName('STRASSE')).not.toBe(normalizeName('straße'));
  });
});
