// Which item of a list a navigation key moves focus to: arrows step with wrap-around, Home and End jump to the ends.

/** The index to focus after `key` pressed on item `current` of `count`, or null when the key does not navigate. */
export function nextIndex(key: string, current: number, count: number): number | null {
  if (count === 0) return null;
  switch (key) {
    case 'ArrowDown':
      return (current + 1) % count;
    case 'ArrowUp':
      return (current - 1 + count) % count;
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return null;
  }
}
