import { useEffect } from 'react';
import { useSyncStore } from '../../stores';

/** Checks the queue against the server when the window comes back into view. */
export function useSyncOnReturn(): void {
  useEffect(() => {
    const sync = () => void useSyncStore.getState().syncNow();
    const visible = () => {
      if (document.visibilityState === 'visible') sync();
    };
    window.addEventListener('focus', sync);
    document.addEventListener('visibilitychange', visible);
    return () => {
      window.removeEventListener('focus', sync);
      document.removeEventListener('visibilitychange', visible);
    };
  }, []);
}
