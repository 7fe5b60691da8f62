// How a build asks V8 to optimise its code later: a build is a few seconds of many functions, not a server's hours of few.
import { givenFlags, setFlagUnlessGiven } from './v8-flags.ts';

/**
 * V8 compiles a function with its optimising compiler (TurboFan) once it has run about this many bytes of its bytecode
 * (the flag's name: each run takes its size from a budget; V8's default is 67,584). A build runs many functions hot for
 * a short while, in several threads: with the default, a cold build of 4,000 Markdown entries spent 2.3 s of its 11.5 s
 * of CPU compiling (641 functions, some of them in three threads), more than brotli and gzip together. At four times
 * the default it spent 1.5 s, and its code ran 0.4-0.5 s longer unoptimised: 0.3-0.6 s less CPU in all (perf, four
 * builds each; bench/RESULTS.md has the paired runs). Only the hottest functions are compiled, a little later.
 */
export const INTERRUPT_BUDGET = 4 * 67_584;

/** The V8 flag, unless the user chose a budget of their own (in NODE_OPTIONS or on node's command line). */
export function optimiseLater(budget = INTERRUPT_BUDGET, given: readonly string[] = givenFlags()): boolean {
  return setFlagUnlessGiven('interrupt-budget', budget, given);
}
