// Keyboard shortcuts written as text ("Alt+T", "F8"), matched against key events.

type KeyInput = Pick<KeyboardEvent, 'key' | 'code' | 'altKey' | 'ctrlKey' | 'metaKey' | 'shiftKey'>;

const MODIFIERS = { Alt: 'altKey', Ctrl: 'ctrlKey', Control: 'ctrlKey', Meta: 'metaKey', Shift: 'shiftKey' } as const;

/**
 * True when the event is exactly the shortcut: the named modifiers held, no others. A letter is matched by its
 * physical key (event.code "KeyT"), because Alt+T types "†" on a Mac keyboard; other keys by event.key ("F8").
 */
export function matchesHotkey(event: KeyInput, hotkey: string): boolean {
  const parts = hotkey.split('+');
  const key = parts.pop()!;
  const held = new Set(parts.map((part) => MODIFIERS[part as keyof typeof MODIFIERS]));
  for (const flag of Object.values(MODIFIERS)) if (event[flag] !== held.has(flag)) return false;
  if (/^[A-Za-z]$/.test(key)) return event.code === `Key${key.toUpperCase()}`;
  return event.key === key;
}
