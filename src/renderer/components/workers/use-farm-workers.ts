import { useCallback, useEffect, useState } from 'react';
import type { FarmWorkersView } from '../../../shared/contract';
import { call } from '../../bridge';

/** How often the worker list is read again while it is shown. */
export const WORKERS_REFRESH_MS = 3000;

/**
 * The active profile's render workers, read now and every few seconds while the component is shown
 * and the window visible; `replace` takes a list a block or unblock answered.
 */
export function useFarmWorkers(): { view: FarmWorkersView | null; error: string | null; replace: (view: FarmWorkersView) => void } {
  const [view, setView] = useState<FarmWorkersView | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let stopped = false;
    const load = async () => {
      if (document.visibilityState === 'hidden') return;
      const result = await call('workers.list', {});
      if (stopped) return;
      if (result.ok) {
        setView(result.value);
        setError(null);
      } else setError(result.error.message);
    };
    void load();
    const timer = setInterval(() => void load(), WORKERS_REFRESH_MS);
    const visible = () => void load();
    document.addEventListener('visibilitychange', visible);
    return () => {
      stopped = true;
      clearInterval(timer);
      document.removeEventListener('visibilitychange', visible);
    };
  }, []);
  const replace = useCallback((next: FarmWorkersView) => setView(next), []);
  return { view, error, replace };
}
