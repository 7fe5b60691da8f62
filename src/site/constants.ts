// The spec's behaviour constants (section 9), in one typed module: components and tests read them from here.

/** Viewports narrower than this are "mobile": the menu becomes a full-screen overlay. */
export const MOBILE_BREAKPOINT_PX = 768;
/** The header turns compact and bordered once the page is scrolled past this. */
export const HEADER_SCROLL_THRESHOLD_PX = 10;
/** The scroll-to-top button appears once the page is scrolled past this. */
export const SCROLL_TOP_THRESHOLD_PX = 400;

export const HERO_PARAGRAPH_DELAY_MS = 200;
export const HERO_BUTTONS_DELAY_MS = 400;
export const FAQ_INTRO_DELAY_MS = 200;
/** Animated text starts when this fraction of it is visible. */
export const ANIMATED_TEXT_THRESHOLD = 0.1;
/** Service card i fades in after BASE + STEP x i. */
export const SERVICE_CARD_DELAY_BASE_MS = 100;
export const SERVICE_CARD_DELAY_STEP_MS = 100;

/** The contact form's simulated send. */
export const SIMULATED_SEND_DELAY_MS = 1500;
export const MESSAGE_ROWS = 4;

export const LOGO_STRIP = {
  gapPx: 40,
  direction: 'reverse',
  loopSeconds: 25,
  logoHeightPx: 120,
} as const;

export const TOOLTIP = { openDelayMs: 700, skipDelayMs: 300 } as const;

/** The Notifications region (newsletter). */
export const NOTIFICATIONS_TOASTER = {
  label: 'Notifications',
  hotkey: 'Alt+T',
  position: 'bottom-right',
  visibleToasts: 3,
  durationMs: 4000,
  gapPx: 14,
  swipeThresholdPx: 20,
  removeDelayMs: 200,
} as const;

/** The alternate viewport (contact form). */
export const ALERT_TOASTER = {
  hotkey: 'F8',
  visibleToasts: 1,
  durationMs: 5000,
  swipeThresholdPx: 50,
} as const;

export const SERVICES_COUNT = 6;
export const BULLETS_PER_SERVICE = 5;
export const FAQ_COUNT = 7;
export const PARTNER_COUNT = 7;
