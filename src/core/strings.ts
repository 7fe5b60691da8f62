// Strings that hold nothing but their own characters: what a build keeps to its end must not keep what it was cut from.

/**
 * `value` as a string of its own. V8 makes a slice of 13 characters or more a view that holds the whole string it was
 * cut from: an attribute's value holds its page's HTML, a frontmatter field read by js-yaml its file's text. Kept to
 * the build's end (a page's links and ids for the links check, an entry's data for every page that lists it), each
 * would hold its page or its file with it. Shorter slices are copies already.
 */
export function detached(value: string): string {
  return value.length < 13 ? value : ` ${value}`.slice(1);
}

/** `value` with every string in it detached (see above), through arrays and plain objects; other values as they are. */
export function detachedStrings<T>(value: T): T {
  if (typeof value === 'string') return detached(value) as T;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = detachedStrings(value[i]);
    return value;
  }
  if (typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype) {
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) record[key] = detachedStrings(record[key]);
  }
  return value;
}
