// What a toast says: its title and one sentence.
import type { ToastText } from '../lib/toast-store.ts';

export function ToastContent({ title, description }: ToastText) {
  return (
    <>
      <p className="toast-title">{title}</p>
      <p className="toast-description">{description}</p>
    </>
  );
}
