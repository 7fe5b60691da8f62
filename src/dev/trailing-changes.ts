// Catches the saves chokidar drops. chokidar reports a file's change at most once per 50 ms and drops, rather than
// delays, any change within that window after one it reported (its `_throttle('change', path, 50)`): an editor that
// writes twice in a row (a format-on-save, a second quick save) would leave the dev server on the older text. So each
// change chokidar reports is looked at again once its window has passed, and reported again if the file moved on.
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';

/** chokidar's change window (50 ms), and a margin for the timer. */
export const TRAILING_CHECK_MS = 60;

/** Files up to this size are compared by content (two writes of one size can share an mtime tick); larger by stat. */
const COMPARE_CONTENT_UP_TO = 1024 * 1024;

export interface TrailingChanges {
  /** A change chokidar reported: check the file again after the window. */
  seen(file: string): void;
  /** Cancels the pending checks. */
  close(): void;
}

export function trailingChanges(report: (file: string) => void, windowMs = TRAILING_CHECK_MS): TrailingChanges {
  const pending = new Map<string, NodeJS.Timeout>();
  return {
    seen(file) {
      const before = stateOf(file);
      clearTimeout(pending.get(file));
      pending.set(
        file,
        setTimeout(() => {
          pending.delete(file);
          if (stateOf(file) !== before) report(file);
        }, windowMs),
      );
    },
    close() {
      for (const timer of pending.values()) clearTimeout(timer);
      pending.clear();
    },
  };
}

/** What a file is now, to tell whether it moved on: its content's hash (its size and time when large), or 'gone'. */
export function stateOf(file: string): string {
  const info = statSync(file, { throwIfNoEntry: false, bigint: true });
  if (!info) return 'gone';
  if (!info.isFile()) return `other:${info.mtimeNs}`;
  if (info.size > BigInt(COMPARE_CONTENT_UP_TO)) return `${info.ino}:${info.size}:${info.mtimeNs}`;
  try {
    return createHash('sha1').update(readFileSync(file)).digest('base64');
  } catch {
    return 'unreadable';
  }
}
