import type { JobStatus } from '../../../shared/api';

const LABELS: Record<JobStatus, string> = {
  created: 'Created',
  validating: 'Validating',
  validated: 'Needs review',
  debugging: 'Debugging',
  rendering: 'Rendering',
  finalizing: 'Finalizing',
  completed: 'Completed',
  failed: 'Failed',
  canceled: 'Canceled',
  booting: 'Starting',
  suspended: 'Suspended',
};

/** A job's status as a coloured badge with words (colour is never the only signal); "Waiting" while it waits in line. */
export function StatusBadge(props: { status: JobStatus; waiting?: boolean }) {
  return <span className={`badge badge-${props.status}`}>{props.waiting ? 'Waiting' : LABELS[props.status]}</span>;
}

/** The words of a status. */
export function statusLabel(status: JobStatus): string {
  return LABELS[status];
}
