// The colour theme: what a first visit shows, where the visitor's choice is kept, and the browser's theme colour.
import type { ContentInput } from './schema.ts';

export default {
  // The <html class="dark"> of templates/document.html is this default, for the first paint before the head script runs.
  default: 'dark',
  storageKey: 'vite-ui-theme',
  colors: { dark: '#0a0a0a', light: '#ffffff' },
} satisfies ContentInput['theme'];
