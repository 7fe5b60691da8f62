// Opens the page's tooltips (components/Tooltip.tsx, .tooltip-anchor): server markup anywhere on the page, given
// behaviour by one set of listeners (lib/tooltips.ts) rather than by hydrating each control.
import { useEffect } from 'react';
import { island } from 'site-gen';
import { enhanceTooltips } from '../lib/tooltips.ts';

function Tooltips() {
  useEffect(() => enhanceTooltips(document), []);
  return null;
}

// interaction: a tooltip only matters once the pointer or the focus reaches a control that has one; the runtime then
// hydrates this at once and hands it the hover or focus that started it, so the tooltip opens as it would have.
export default island('tooltips', Tooltips, { hydrate: 'interaction', targets: '.tooltip-anchor' });
