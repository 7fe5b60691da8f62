// A V8 flag the build sets for itself, unless the user gave that flag to node (on its command line or in NODE_OPTIONS).
import { setFlagsFromString } from 'node:v8';

/** What node was given: its command line's flags and NODE_OPTIONS. */
export function givenFlags(): string[] {
  return [...process.execArgv, process.env.NODE_OPTIONS ?? ''];
}

/**
 * Sets `--name=value` unless one of `given` names the flag (with `-` or `_` between its words, as node takes either);
 * a longer flag that only starts with the name is another flag. Whether it was set.
 */
export function setFlagUnlessGiven(name: string, value: number, given: readonly string[] = givenFlags()): boolean {
  const words = name.split('-').join('[-_]');
  if (given.some((arg) => new RegExp(`--${words}(?![-_\\w])`).test(arg))) return false;
  setFlagsFromString(`--${name}=${value}`);
  return true;
}
