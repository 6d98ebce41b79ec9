import { useDetailStore, useQueueStore } from '../stores';

/**
 * Closes a job's details and puts focus back on its row of the queue, or on the queue list when the
 * row is not drawn (scrolled away, filtered out), so focus never falls to the page itself.
 */
export function closeJobDetails(jobId: string): void {
  useDetailStore.getState().close();
  useQueueStore.getState().select(null);
  requestAnimationFrame(() => {
    const row = document.querySelector<HTMLElement>(`[role="list"] [data-job-id="${CSS.escape(jobId)}"]`);
    const target = row ?? document.querySelector<HTMLElement>('[data-testid="queue-scroll"]') ?? document.querySelector<HTMLElement>('main');
    if (target && !target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
    target?.focus();
  });
}
