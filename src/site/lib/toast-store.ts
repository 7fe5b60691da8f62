// The two toast regions' settings, and show(): a toast into react-hot-toast's store. Loaded on first need (lib/toasts.ts).
import { createElement } from 'react';
import { toast } from 'react-hot-toast/headless';
import { ToastContent } from '../components/ToastContent.tsx';
import { ALERT_TOASTER, NOTIFICATIONS_TOASTER } from '../constants.ts';

export interface ToastText {
  title: string;
  description: string;
}

/** 'destructive' is an error the visitor must act on: styled as such and announced at once (role alert). */
export type ToastVariant = 'default' | 'destructive';

export interface ToasterSettings {
  /** react-hot-toast's toasterId: keeps each region's toasts, timers and pauses apart. */
  id: string;
  /** e.g. "Alt+T" or "F8": moves focus to the region. */
  hotkey: string;
  /** More open toasts than this: the oldest are dismissed. */
  visibleToasts: number;
  durationMs: number;
  swipeThresholdPx: number;
  /** How long a dismissed toast stays for its exit animation. */
  removeDelayMs: number;
  /** Stacked behind the front toast until hovered or focused, then expanded with this gap; null: one at a time. */
  stackGapPx: number | null;
  position: 'bottom-right' | 'top-right';
}

export const toasters = {
  notifications: {
    id: 'notifications',
    hotkey: NOTIFICATIONS_TOASTER.hotkey,
    visibleToasts: NOTIFICATIONS_TOASTER.visibleToasts,
    durationMs: NOTIFICATIONS_TOASTER.durationMs,
    swipeThresholdPx: NOTIFICATIONS_TOASTER.swipeThresholdPx,
    removeDelayMs: NOTIFICATIONS_TOASTER.removeDelayMs,
    stackGapPx: NOTIFICATIONS_TOASTER.gapPx,
    position: NOTIFICATIONS_TOASTER.position,
  },
  alert: {
    id: 'alert',
    hotkey: ALERT_TOASTER.hotkey,
    visibleToasts: ALERT_TOASTER.visibleToasts,
    durationMs: ALERT_TOASTER.durationMs,
    swipeThresholdPx: ALERT_TOASTER.swipeThresholdPx,
    // The spec gives the alternate viewport no removal delay: it takes the Notifications region's.
    removeDelayMs: NOTIFICATIONS_TOASTER.removeDelayMs,
    stackGapPx: null,
    // Top right, so it never covers the Notifications region (bottom right) when both show at once.
    position: 'top-right',
  },
} as const satisfies Record<string, ToasterSettings>;

export type ToasterName = keyof typeof toasters;

/** Adds a toast to the named region's store; returns its id. */
export function show(name: ToasterName, text: ToastText, variant: ToastVariant = 'default'): string {
  const settings: ToasterSettings = toasters[name];
  const add = variant === 'destructive' ? toast.error : toast.success;
  return add(createElement(ToastContent, text), {
    toasterId: settings.id,
    duration: settings.durationMs,
    removeDelay: settings.removeDelayMs,
    ariaProps: variant === 'destructive' ? { role: 'alert', 'aria-live': 'assertive' } : { role: 'status', 'aria-live': 'polite' },
  });
}
