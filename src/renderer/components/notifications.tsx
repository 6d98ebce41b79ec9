import { useEffect } from 'react';
import { useNotificationsStore } from '../stores';

const LIFETIME_MS = 10_000;

/** In-app notifications: completions and failures, announced to screen readers. */
export function Notifications() {
  const items = useNotificationsStore((s) => s.items);
  useEffect(() => {
    if (items.length === 0) return;
    const oldest = items[items.length - 1]!;
    const timer = setTimeout(() => useNotificationsStore.getState().dismiss(oldest.id), LIFETIME_MS);
    return () => clearTimeout(timer);
  }, [items]);
  return (
    <section className="toasts" aria-live="polite" aria-label="Notifications">
      {items.map((n) => (
        <div key={n.id} className={`toast toast-${n.level}`} role={n.level === 'error' ? 'alert' : 'status'}>
          <strong>{n.title}</strong>
          <p>{n.message}</p>
          <button type="button" className="icon-button" aria-label={`Dismiss: ${n.title}`} onClick={() => useNotificationsStore.getState().dismiss(n.id)}>
            ×
          </button>
        </div>
      ))}
    </section>
  );
}
