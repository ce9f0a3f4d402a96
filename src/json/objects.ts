/** Internal helpers shared by several modules. Never re-exported. */

const objectProto = Object.prototype;
const hasOwnProperty = objectProto.hasOwnProperty;
const toStr = objectProto.toString;

/** `Object.hasOwn` for the runtimes we support (Node 18 has it, old browsers may not). */
export function hasOwn(object: object, key: string): boolean {
  return hasOwnProperty.call(object, key);
}

/** Own enumerable property value, never an inherited one. */
export function ownValue(object: object, key: string): unknown {
  return hasOwnProperty.call(object, key) ? (object as Record<string, unknown>)[key] : undefined;
}

/**
 * A JSON object as the library walks it: an object whose prototype is `Object.prototype`
 * or `null`. Arrays, class instances, Dates, Maps and lossless numbers are not plain.
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return (proto === objectProto || proto === null) && toStr.call(value) === '[object Object]';
}

/**
 * Sets an own, enumerable data property, even for the key `__proto__`, whose plain assignment
 * would change the prototype instead of storing the key.
 */
export function setOwn(object: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
  } else {
    object[key] = value;
  }
}

/** A shallow copy of a plain object: every own enumerable key, in order, as own data. */
export function copyObject(source: Record<string, unknown>): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(source)) setOwn(copy, key, source[key]);
  return copy;
}
