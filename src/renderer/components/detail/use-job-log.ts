import { useEffect, useState } from 'react';
import { call } from '../../bridge';

/** A job's log as the Log tab knows it. */
export type JobLogState =
  | { kind: 'loading' }
  | { kind: 'log'; text: string; cutBytes: number }
  | { kind: 'none'; failure: string | null }
  | { kind: 'error'; message: string };

/** How often a running job's log is asked for new lines. */
const LIVE_MS = 1500;

/**
 * The log of a job: read whole when the job (or whether it runs) changes, then, while `live`, its new
 * lines every {@link LIVE_MS}.
 */
export function useJobLog(jobId: string, live: boolean): JobLogState {
  const [state, setState] = useState<JobLogState>({ kind: 'loading' });
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let since = 0;
    let text = '';
    const read = async () => {
      const result = await call('jobs.log', { jobId, since });
      if (stopped) return;
      if (!result.ok) {
        if (since === 0) setState({ kind: 'error', message: result.error.message });
      } else if (result.value.kind === 'none') {
        setState({ kind: 'none', failure: result.value.failure });
        return;
      } else {
        const log = result.value;
        text = log.offset < since ? log.text : text + log.text;
        since = log.nextOffset;
        setState({ kind: 'log', text, cutBytes: log.cutBytes });
      }
      if (live) timer = setTimeout(() => void read(), LIVE_MS);
    };
    void read();
    return () => {
      stopped = true;
      if (timer) clearTimeout(timer);
    };
  }, [jobId, live]);
  return state;
}
