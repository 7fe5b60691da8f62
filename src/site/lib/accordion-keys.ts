// The FAQ accordion's keys: ArrowDown / ArrowUp move focus to the next / previous question (wrapping), Home / End to
// the first / last. The platform's <details> does the rest (Enter and Space open and close, Tab moves on).
import { nextIndex } from './roving.ts';

/**
 * One listener on the document for every `.accordion` on the page (server markup, components/Faq.tsx), so the
 * accordion needs no island of its own: a click on a question is never held for a script. Disabled questions are
 * buttons, not summaries: skipped. Returns the function that removes the listener.
 */
export function enhanceAccordionKeys(doc: Document): () => void {
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const question = event.target;
    if (!(question instanceof HTMLElement) || !question.matches('.accordion > .accordion-item > summary')) return;
    const questions = [...question.closest('.accordion')!.querySelectorAll<HTMLElement>(':scope > .accordion-item > summary')];
    const next = nextIndex(event.key, questions.indexOf(question), questions.length);
    if (next === null) return;
    event.preventDefault();
    questions[next]!.focus();
  };
  doc.addEventListener('keydown', onKeyDown);
  return () => doc.removeEventListener('keydown', onKeyDown);
}
