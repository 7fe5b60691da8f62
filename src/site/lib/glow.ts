// The glow that follows the pointer over an element marked data-glow (the service cards): --glow-x / --glow-y in px.

/** Sets the element's --glow-x / --glow-y (styles/services.css) from the pointer, at most once a frame; no React render. */
export function followPointerGlow(doc: Document): () => void {
  let frame = 0;
  let target: HTMLElement | null = null;
  let x = 0;
  let y = 0;
  const apply = () => {
    frame = 0;
    target?.style.setProperty('--glow-x', `${x}px`);
    target?.style.setProperty('--glow-y', `${y}px`);
  };
  const onMove = (event: PointerEvent) => {
    target = event.currentTarget as HTMLElement;
    const box = target.getBoundingClientRect();
    x = Math.round(event.clientX - box.left);
    y = Math.round(event.clientY - box.top);
    if (!frame) frame = requestAnimationFrame(apply);
  };
  const elements = [...doc.querySelectorAll<HTMLElement>('[data-glow]')];
  for (const element of elements) element.addEventListener('pointermove', onMove, { passive: true });
  return () => {
    cancelAnimationFrame(frame);
    for (const element of elements) element.removeEventListener('pointermove', onMove);
  };
}
