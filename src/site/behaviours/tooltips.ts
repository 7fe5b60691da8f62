// Opens the page's tooltips (components/Tooltip.tsx, .tooltip-anchor): server markup anywhere on the page, given
// behaviour by one set of listeners (lib/tooltips.ts) rather than by hydrating each control.
import { behaviour } from 'site-gen-ssg';
import { enhanceTooltips } from '../lib/tooltips.ts';

// interaction: a tooltip only matters once the pointer or the focus reaches a control that has one; the runtime then
// starts this at once and hands it the hover or focus that started it, so the tooltip opens as it would have.
export default behaviour('tooltips', { hydrate: 'interaction', targets: '.tooltip-anchor' }, () => {
  enhanceTooltips(document);
});
