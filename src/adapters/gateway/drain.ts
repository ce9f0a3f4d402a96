/**
 * When the gateway is asked to stop: SIGTERM, SIGINT, or, when npm started it (`npx
 * schema-coerce gateway`, an npm script), the end of the shell npm ran it in. npm runs a package's
 * bin through `sh -c` and passes SIGTERM and SIGINT on to that shell alone; Debian's and Alpine's
 * `sh` neither passes them on to its child nor lets it replace itself, so the shell dies and the
 * gateway, orphaned, never hears the signal. The gateway therefore watches its parent while npm
 * started it and takes the parent's end for the signal. (npm itself then exits at once, before the
 * drain is over: a supervisor that must wait for the drain runs the bin itself, not `npx`.)
 */

/** How often the parent is looked at, in ms. */
const PARENT_WATCH_MS = 200;

/**
 * Resolves with what asked the gateway to stop, as its log names it: `SIGTERM`, `SIGINT`, or
 * `the parent process ended (npm's shell)`.
 */
export function stopRequested(env: NodeJS.ProcessEnv = process.env): Promise<string> {
  return new Promise((resolve) => {
    const parent = process.ppid;
    const watch = startedByNpm(env)
      ? setInterval(() => {
          if (process.ppid !== parent) stop("the parent process ended (npm's shell, which does not pass signals on)");
        }, PARENT_WATCH_MS)
      : undefined;
    watch?.unref();
    const stop = (why: string): void => {
      process.off('SIGTERM', stop).off('SIGINT', stop);
      clearInterval(watch);
      resolve(why);
    };
    process.on('SIGTERM', stop).on('SIGINT', stop);
  });
}

/** Whether npm (npx, `npm exec`, an npm script) started the process: it sets `npm_lifecycle_event`. */
function startedByNpm(env: NodeJS.ProcessEnv): boolean {
  return env['npm_lifecycle_event'] !== undefined;
}
