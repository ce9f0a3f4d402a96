/**
 * The one place the MCP wrappers sit between an SDK and its transport: every message the SDK
 * sends is seen on its way out, and every message that arrives is seen (and may be replaced,
 * held back or answered) before the SDK reads it. Works for a transport before `connect` (the
 * SDK's handler is caught when it is set) and after (the handler already set is wrapped).
 */
import type { McpTransport, WireMessage } from './sdk-types.js';

/** How a message reaches the SDK (its `onmessage`), with the transport's extra information. */
export type Deliver = (message: unknown, extra: unknown) => void;

/** What a tap does with the traffic of one transport. */
export interface Tap {
  /** A message the SDK sends (a request, a response, a notification), before it is sent. */
  sent(message: WireMessage): void;
  /** A message that arrived: `deliver` hands it, or what replaces it, to the SDK, now or later. */
  received(message: WireMessage, extra: unknown, deliver: Deliver): void;
}

type Send = (message: unknown, options?: unknown) => Promise<void>;

/**
 * Puts `tap` between `transport` and the SDK that uses it.
 *
 * @returns The transport's own `send`, for messages of the wrapper's own that the tap must not see.
 */
export function tapTransport(transport: McpTransport, tap: Tap): Send {
  const target = transport as unknown as { send: Send; onmessage?: Deliver | undefined };
  const send = target.send.bind(target);
  target.send = (message, options) => {
    tap.sent(message as WireMessage);
    return send(message, options);
  };
  // Each handler the SDK sets gets a wrapper of its own, which delivers to that handler: an SDK
  // that reads `onmessage` and chains it from the next handler it sets (the SDKs' `connect`
  // does) reaches the tap once per wrapper, never in a loop; one that sets back a wrapper it
  // read keeps that wrapper.
  const wrappers = new WeakSet<Deliver>();
  const wrap = (handler: Deliver | undefined): Deliver | undefined => {
    if (handler === undefined) return undefined;
    if (wrappers.has(handler)) return handler;
    const wrapper: Deliver = (message, extra) => tap.received(message as WireMessage, extra, handler);
    wrappers.add(wrapper);
    return wrapper;
  };
  let current = wrap(target.onmessage);
  Object.defineProperty(target, 'onmessage', {
    configurable: true,
    enumerable: true,
    get: () => current,
    set: (next: Deliver | undefined) => {
      current = wrap(next);
    },
  });
  return send;
}
