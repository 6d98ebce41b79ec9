import { useCallback, useEffect, useState } from 'react';
import type { FolderView } from '../../../shared/contract';
import { call } from '../../bridge';

/** A folder of the file browser as it loads: the listing, or why it could not be listed. */
export interface FolderState {
  folder: FolderView | null;
  error: string | null;
  loading: boolean;
  /** Lists another folder (undefined: the last one shown, else home). */
  go(path?: string): void;
}

/** Loads folders for the file browser through the back end; the first is `start`, else the last folder shown. */
export function useFolder(hidden: boolean, start?: string): FolderState {
  const [folder, setFolder] = useState<FolderView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [target, setTarget] = useState<{ path?: string }>(start === undefined ? {} : { path: start });

  useEffect(() => {
    let live = true;
    setLoading(true);
    void call('files.list', { ...(target.path !== undefined ? { path: target.path } : {}), hidden }).then((result) => {
      if (!live) return;
      setLoading(false);
      if (result.ok) {
        setFolder(result.value);
        setError(null);
      } else setError(result.error.message);
    });
    return () => {
      live = false;
    };
  }, [target, hidden]);

  const go = useCallback((path?: string) => setTarget(path === undefined ? {} : { path }), []);
  return { folder, error, loading, go };
}
