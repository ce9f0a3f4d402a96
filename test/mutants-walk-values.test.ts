/**
 * The one walk over argument values asked directly, with a visitor that records what it is told:
 * the order of visits and the path at each, children skipped or containers left unentered, the
 * copy-on-write rule (the same reference when nothing is replaced, copies only on the path to a
 * replacement), what `leave` returns, and cycles found from the watch depth on.
 */
import { describe, expect, test } from 'vitest';
import { walkValues, type Container, type PathToken, type ValueVisitor } from '../src/json/walk-values.js';
import { deepFreeze } from './_helpers/fixtures.js';

interface Options {
  readonly skip?: (token: PathToken) => boolean;
  readonly enter?: (container: Container) => boolean;
  readonly leaf?: (value: unknown) => unknown;
  readonly leave?: (original: Container, done: Container) => unknown;
}

function recorder(path: PathToken[], options: Options = {}) {
  const events: string[] = [];
  const at = () => '/' + path.join('/');
  const visitor: ValueVisitor<number> = {
    child: (depth, token) => (options.skip?.(token) ? undefined : depth + 1),
    leaf: (value, depth) => (events.push(`leaf ${at()} ${JSON.stringify(value)} ${depth}`), options.leaf ? options.leaf(value) : value),
    enter: (container, depth) => (events.push(`enter ${at()} ${depth}`), options.enter ? options.enter(container) : true),
    leave: (original, done, depth) => (events.push(`leave ${at()} ${depth} ${original === done ? 'same' : 'copy'}`), options.leave ? options.leave(original, done) : done),
    cycle: (_container, depth) => void events.push(`cycle ${at()} ${depth}`),
  };
  return { events, visitor };
}

describe('the order of visits and the path', () => {
  test('parents before children, children in key order, the path at each, and the path left as it was given', () => {
    const path: PathToken[] = ['start'];
    const { events, visitor } = recorder(path);
    const value = deepFreeze({ a: [1, { b: 2 }], c: 3 });
    expect(walkValues(value, 0, visitor, path, 0)).toBe(value);
    expect(events).toEqual([
      'enter /start 0', 'enter /start/a 1', 'leaf /start/a/0 1 2', 'enter /start/a/1 2', 'leaf /start/a/1/b 2 3', 'leave /start/a/1 2 same',
      'leave /start/a 1 same', 'leaf /start/c 3 1', 'leave /start 0 same',
    ]);
    expect(path).toEqual(['start']);
  });

  test('a value that is no container is one leaf, and its replacement is the answer', () => {
    const { events, visitor } = recorder([], { leaf: () => 'new' });
    expect(walkValues(5, 7, visitor, [], 0)).toBe('new');
    expect(events).toEqual(['leaf / 5 7']);
  });

  test('a child with no state is skipped; a container not entered is left as it is', () => {
    const path: PathToken[] = [];
    const { events, visitor } = recorder(path, { skip: (token) => token === 'x', enter: (container) => !Array.isArray(container) });
    walkValues(deepFreeze({ x: 1, y: [1], z: { w: 2 } }), 0, visitor, path, 0);
    expect(events).toEqual(['enter / 0', 'enter /y 1', 'enter /z 1', 'leaf /z/w 2 2', 'leave /z 1 same', 'leave / 0 same']);
    expect(path).toEqual([]);
  });

  test('a root not entered comes back as it is', () => {
    const value = deepFreeze([1]);
    const { events, visitor } = recorder([], { enter: () => false });
    expect(walkValues(value, 0, visitor, [], 0)).toBe(value);
    expect(events).toEqual(['enter / 0']);
  });
});

describe('copy on write', () => {
  test('only the containers on the path to a replacement are copied; the input is never changed', () => {
    const value = deepFreeze({ keep: { n: 1 }, change: [{ n: 1 }, { n: 2 }], __proto__x: 0 });
    const { visitor } = recorder([], { leaf: (v) => (v === 2 ? 20 : v) });
    const out = walkValues(value, 0, visitor, [], 0) as typeof value;
    expect(out).toEqual({ keep: { n: 1 }, change: [{ n: 1 }, { n: 20 }], __proto__x: 0 });
    expect(out).not.toBe(value);
    expect(out.keep).toBe(value.keep);
    expect(out.change).not.toBe(value.change);
    expect(out.change[0]).toBe(value.change[0]);
    expect(value.change[1]).toEqual({ n: 2 });
  });

  test('a NaN that stays NaN is no change', () => {
    const value = deepFreeze({ a: Number.NaN });
    const { visitor } = recorder([], { leaf: (v) => v });
    expect(walkValues(value, 0, visitor, [], 0)).toBe(value);
  });

  test('leave may replace a container, and its parent is copied for it', () => {
    const value = deepFreeze({ a: { b: 1 }, c: { d: 1 } });
    const { visitor } = recorder([], { leave: (original, done) => ('b' in original ? 'gone' : done) });
    const out = walkValues(value, 0, visitor, [], 0) as Record<string, unknown>;
    expect(out).toEqual({ a: 'gone', c: { d: 1 } });
    expect(out['c']).toBe(value.c);
  });

  test('a replaced value under a __proto__ key is set as an own key, never as the prototype', () => {
    const value = deepFreeze(JSON.parse('{"__proto__":{"n":2}}') as Record<string, unknown>);
    const { visitor } = recorder([], { leaf: (v) => (v === 2 ? 3 : v) });
    const out = walkValues(value, 0, visitor, [], 0) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(out, '__proto__')?.value).toEqual({ n: 3 });
  });

  test('a __proto__ key is copied as an own key', () => {
    const value = deepFreeze(JSON.parse('{"__proto__":1,"n":2}') as Record<string, unknown>);
    const { visitor } = recorder([], { leaf: (v) => (v === 2 ? 3 : v) });
    const out = walkValues(value, 0, visitor, [], 0) as Record<string, unknown>;
    expect(Object.keys(out)).toEqual(['__proto__', 'n']);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
  });
});

describe('cycles', () => {
  const cyclic = () => {
    const root: Record<string, unknown> = { a: { b: {} } };
    ((root['a'] as Record<string, unknown>)['b'] as Record<string, unknown>)['back'] = root;
    return root;
  };

  test.each([0, 1, 2, 3])('a container that is its own ancestor is reported once and not entered (watch depth %d)', (depth) => {
    const path: PathToken[] = [];
    const { events, visitor } = recorder(path);
    walkValues(cyclic(), 0, visitor, path, depth);
    expect(events.filter((event) => event.startsWith('cycle'))).toEqual(['cycle /a/b/back 3']);
    expect(path).toEqual([]);
  });

  test('the same object twice side by side is no cycle', () => {
    const shared = { n: 1 };
    const { events, visitor } = recorder([]);
    walkValues({ x: shared, y: shared, z: [shared] }, 0, visitor, [], 0);
    expect(events.filter((event) => event.startsWith('cycle'))).toEqual([]);
    expect(events.filter((event) => event.startsWith('enter')).length).toBe(5);
  });

  test('a sibling left is no longer an ancestor', () => {
    const shared: Record<string, unknown> = { n: 1 };
    const { events, visitor } = recorder([]);
    walkValues({ x: { inner: shared }, y: shared }, 0, visitor, [], 1);
    expect(events.filter((event) => event.startsWith('cycle'))).toEqual([]);
  });

  test('past the watch depth a cycle is still found', () => {
    const deep: Record<string, unknown> = {};
    let node = deep;
    for (let i = 0; i < 5; i++) node = (node['next'] = {}) as Record<string, unknown>;
    node['loop'] = deep;
    const path: PathToken[] = [];
    const { events, visitor } = recorder(path);
    walkValues(deep, 0, visitor, path, 4);
    expect(events.filter((event) => event.startsWith('cycle'))).toEqual(['cycle /next/next/next/next/next/loop 6']);
  });
});
