// Texts of the fallback screen shown when part of the page fails to render (src/site/components/ErrorScreen.tsx).
import type { ContentInput } from './schema.ts';

export default {
  title: 'Unexpected Application Error!',
  text: 'Something went wrong while showing this part of the page. Reloading the page usually helps; the details below are for the developers.',
  stack: 'Stack trace',
} satisfies ContentInput['errors'];
