/**
 * Byte-exact line framing for the raw test and bench peers: calls `handle` with each
 * newline-terminated line of `stream` as a Buffer (without the newline), in order.
 */
export function onLines(stream, handle) {
  let pending = [];
  stream.on('data', (chunk) => {
    let from = 0;
    for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, from)) {
      pending.push(chunk.subarray(from, at));
      handle(pending.length === 1 ? pending[0] : Buffer.concat(pending));
      pending = [];
      from = at + 1;
    }
    if (from < chunk.length) pending.push(chunk.subarray(from));
  });
}
