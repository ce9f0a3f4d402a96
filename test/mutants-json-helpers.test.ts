/**
 * The small JSON helpers asked directly, one row per boundary: JSON Pointer tokens and lookups
 * (escapes, indices, own properties only), plain objects and own data (`__proto__` kept as a
 * key), flat string copies, text locations, and the error family's fields and messages.
 */
import { describe, expect, test } from 'vitest';
import { ArgsCycleError, ArgsParseError, MissingPeerError, SchemaCoerceError, locate } from '../src/json/errors.js';
import { copyObject, hasOwn, isPlainObject, ownValue, setOwn } from '../src/json/objects.js';
import { PointerPath, escapeToken, parsePointer, valueAtPointer } from '../src/json/pointer.js';
import { editDistance, flatCopy, flatSlice } from '../src/json/strings.js';

describe('JSON Pointer', () => {
  test.each([
    ['plain', 'plain'], ['a/b', 'a~1b'], ['a~b', 'a~0b'], ['~/', '~0~1'], ['~1', '~01'], ['//', '~1~1'], ['', ''],
  ])('escapeToken(%j) is %j, and it reads back', (token, escaped) => {
    expect(escapeToken(token)).toBe(escaped);
    expect(parsePointer(`/${escaped}`)).toEqual([token]);
  });

  test('PointerPath joins escaped tokens, numbers as digits; no token is the root; a pop steps back one', () => {
    const path = new PointerPath();
    expect([path.pointer, path.last()]).toEqual(['', undefined]);
    for (const token of ['a', 0, 'b/c', '~']) path.push(token);
    expect([path.pointer, path.last()]).toEqual(['/a/0/b~1c/~0', '~']);
    expect(path.pop()).toBe('~');
    expect([path.pointer, path.last()]).toEqual(['/a/0/b~1c', 'b/c']);
    path.pop();
    path.push('x');
    expect(path.pointer).toBe('/a/0/x');
    path.pop();
    path.pop();
    path.pop();
    expect(path.pop()).toBe(undefined);
    expect([path.pointer, path.last()]).toEqual(['', undefined]);
  });

  test('a PointerPath makes a pointer when it is read: after pushes never read, after pops below and above what was read', () => {
    const path = new PointerPath();
    path.push('x');
    path.push('y');
    path.pop();
    expect(path.pointer).toBe('/x');
    path.push('b');
    expect(path.pointer).toBe('/x/b');
    path.pop();
    path.pop();
    path.push('c');
    expect(path.pointer).toBe('/c');
    path.push('d');
    path.push('e');
    expect(path.pointer).toBe('/c/d/e');
    for (let i = 0; i < 3; i++) path.pop();
    path.push('f');
    path.push('g');
    expect(path.pointer).toBe('/f/g');
    path.pop();
    expect(path.pointer).toBe('/f');
  });

  test('a PointerPath started at a pointer extends it and has no token of its own', () => {
    const path = new PointerPath('/a~1b/0');
    expect([path.pointer, path.last()]).toEqual(['/a~1b/0', undefined]);
    path.push('c');
    expect([path.pointer, path.last()]).toEqual(['/a~1b/0/c', 'c']);
  });

  test.each([
    ['', []], ['/', ['']], ['/a/b', ['a', 'b']], ['/a//b', ['a', '', 'b']], ['/~01', ['~1']], ['/~10', ['/0']], ['a', undefined], ['#/a', undefined],
  ])('parsePointer(%j)', (pointer, tokens) => {
    expect(parsePointer(pointer)).toEqual(tokens);
  });

  const root = { a: { b: [10, 20, { c: 'deep' }] }, 'x/y': 1, '': 'empty key', n: null };
  test.each([
    ['', root], ['/a/b/1', 20], ['/a/b/2/c', 'deep'], ['/x~1y', 1], ['/', 'empty key'], ['/n', null],
    ['/a/b/3', undefined], ['/a/b/01', undefined], ['/a/b/-1', undefined], ['/a/b/1.0', undefined], ['/a/b/ 1', undefined], ['/a/b/length', undefined],
    ['/a/b/0', 10], ['/a/b/0/x', undefined], ['/n/x', undefined], ['/toString', undefined], ['/a/constructor', undefined], ['a', undefined],
  ])('valueAtPointer(root, %j)', (pointer, value) => {
    expect(valueAtPointer(root, pointer)).toBe(value);
  });

  test('an array index is only ever a canonical decimal index', () => {
    const list = Array.from({ length: 12 }, (_, i) => i * 2);
    expect(valueAtPointer(list, '/10')).toBe(20);
    expect(valueAtPointer(list, '/0')).toBe(0);
    expect(valueAtPointer(list, '/00')).toBeUndefined();
    expect(valueAtPointer(list, '/1e1')).toBeUndefined();
    expect(valueAtPointer('text', '/0')).toBeUndefined();
  });
});

describe('objects', () => {
  class Thing {
    readonly a = 1;
  }
  test.each([
    ['{}', {}, true], ['Object.create(null)', Object.create(null), true], ['an array', [], false], ['null', null, false],
    ['a class instance', new Thing(), false], ['a Date', new Date(0), false], ['a Map', new Map(), false], ['a string', 'x', false],
    ['an object with a toStringTag', { [Symbol.toStringTag]: 'Other' }, false], ['an object made from another', Object.create({}), false],
  ])('isPlainObject: %s is %s', (_name, value, plain) => {
    expect(isPlainObject(value)).toBe(plain);
  });

  test('own values only, never inherited ones', () => {
    const child = Object.create({ inherited: 1 }) as Record<string, unknown>;
    child['own'] = 2;
    expect([hasOwn(child, 'own'), hasOwn(child, 'inherited'), ownValue(child, 'own'), ownValue(child, 'inherited'), ownValue({}, 'toString')]).toEqual([true, false, 2, undefined, undefined]);
  });

  test('setOwn stores __proto__ as an own enumerable key and leaves the prototype alone', () => {
    const target: Record<string, unknown> = {};
    setOwn(target, '__proto__', { polluted: true });
    setOwn(target, 'b', 2);
    expect(Object.getPrototypeOf(target)).toBe(Object.prototype);
    expect(Object.keys(target)).toEqual(['__proto__', 'b']);
    expect(Object.getOwnPropertyDescriptor(target, '__proto__')).toEqual({ value: { polluted: true }, writable: true, enumerable: true, configurable: true });
    target['__proto__'] = 3;
    expect(ownValue(target, '__proto__')).toBe(3);
  });

  test('copyObject copies every own key in order, __proto__ included, as a new object', () => {
    const source = JSON.parse('{"z":1,"__proto__":{"x":1},"a":2}') as Record<string, unknown>;
    const copy = copyObject(source);
    expect(copy).not.toBe(source);
    expect(Object.keys(copy)).toEqual(['z', '__proto__', 'a']);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(ownValue(copy, '__proto__')).toBe(source['__proto__']);
  });
});

describe('flat strings', () => {
  test.each([[0, 0], [0, 1], [0, 2], [1, 4], [2, 27], [0, 40], [39, 40], [5, 5]])('flatSlice(text, %d, %d) is the slice', (start, end) => {
    const text = 'abcdefghijklmnopqrstuvwxyz0123456789ABCD';
    expect(flatSlice(text, start, end)).toBe(text.slice(start, end));
  });

  test('flatCopy is the same text', () => {
    for (const text of ['', 'a', 'ab', 'a longer text of more than thirteen characters']) expect(flatCopy(text)).toBe(text);
  });
});

describe('locate', () => {
  const text = 'ab\ncd\n\nef';
  test.each([
    [0, 1, 1], [1, 1, 2], [2, 1, 3], [3, 2, 1], [4, 2, 2], [5, 2, 3], [6, 3, 1], [7, 4, 1], [9, 4, 3], [99, 4, 3], [-5, 1, 1],
  ])('position %d is line %d column %d', (position, line, column) => {
    expect(locate(text, position)).toEqual({ position: Math.max(0, Math.min(position, text.length)), line, column });
  });

  test('a text with no line break is one line', () => {
    expect(locate('abc', 2)).toEqual({ position: 2, line: 1, column: 3 });
  });
});

describe('the error family', () => {
  test('SchemaCoerceError: the prefix, the detail, the cause', () => {
    const cause = new Error('inner');
    const error = new SchemaCoerceError('something', { cause });
    expect([error.message, error.detail, error.name, error.cause, error instanceof Error]).toEqual(['[schema-coerce] something', 'something', 'SchemaCoerceError', cause, true]);
  });

  test('ArgsParseError with a location: where, why, and whether the text was cut off', () => {
    const error = new ArgsParseError('Unexpected end', { position: 7, line: 2, column: 3 }, true);
    expect(error).toBeInstanceOf(SchemaCoerceError);
    expect({ ...error, message: error.message, name: error.name }).toEqual({
      message: '[schema-coerce] the arguments were cut off at line 2 column 3 (position 7): Unexpected end',
      detail: 'the arguments were cut off at line 2 column 3 (position 7): Unexpected end',
      name: 'ArgsParseError', reason: 'Unexpected end', truncated: true, position: 7, line: 2, column: 3,
    });
  });

  test('ArgsParseError without a location, not cut off', () => {
    const error = new ArgsParseError('not text');
    expect([error.message, error.truncated, error.position, error.line, error.column]).toEqual(['[schema-coerce] invalid JSON: not text', false, undefined, undefined, undefined]);
  });

  test('ArgsCycleError', () => {
    const error = new ArgsCycleError();
    expect([error.message, error.name, error instanceof SchemaCoerceError]).toEqual(['[schema-coerce] cannot write cyclic arguments as JSON', 'ArgsCycleError', true]);
  });

  test('MissingPeerError names the feature, the peer and what to install, with the cause', () => {
    const cause = new Error("Cannot find package 'ajv'");
    const error = new MissingPeerError('validation', 'ajv', cause);
    expect([error.name, error.feature, error.peer, error.cause]).toEqual(['MissingPeerError', 'validation', 'ajv', cause]);
    expect(error.need).toBe("needs the optional peer dependency ajv (npm install ajv): Cannot find package 'ajv'");
    expect(error.message).toBe("[schema-coerce] validation needs the optional peer dependency ajv (npm install ajv): Cannot find package 'ajv'");
    expect(new MissingPeerError('x', 'p', 'plain text').need).toBe('needs the optional peer dependency p (npm install p): plain text');
  });
});

describe('editDistance (optimal string alignment)', () => {
  test.each([
    ['', '', 0],
    ['abc', 'abc', 0],
    ['abc', 'acb', 1],
    ['ab', 'ba', 1],
    ['xy', 'yx', 1],
    ['abcdef', 'abcfed', 2],
    ['abcd', 'badc', 2],
    ['ca', 'abc', 3],
    ['kitten', 'sitting', 3],
    ['ab', 'abcde', 3],
    ['gatway', 'gateway', 1],
    ['porxy', 'proxy', 1],
    ['abc', 'ab', 1],
    ['ab', 'b', 1],
    ['b', 'ab', 1],
  ])('%j to %j: %i', (a, b, distance) => {
    expect(editDistance(a, b)).toBe(distance);
    expect(editDistance(b, a)).toBe(distance);
  });

  test('lengths more than 3 apart are Infinity, without a table', () => {
    expect(editDistance('a', 'abcde')).toBe(Infinity);
    expect(editDistance('abcde', 'a')).toBe(Infinity);
  });

  test('a name longer than the table grows it, and a short one after it is still right', () => {
    expect(editDistance('x'.repeat(70), `${'x'.repeat(69)}y`)).toBe(1);
    expect(editDistance('x'.repeat(64), 'x'.repeat(64))).toBe(0);
    expect(editDistance('ab', 'ba')).toBe(1);
  });
});
