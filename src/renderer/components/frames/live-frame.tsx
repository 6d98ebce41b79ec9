import type { JobSummary } from '../../../shared/contract';

/**
 * The job's preview: while it renders, the last rendered frame (fetched again as frames are done);
 * afterwards the farm's preview of the result.
 */
export function LiveFrame(props: { summary: JobSummary; preview: string | null; active: boolean }) {
  const { summary, preview, active } = props;
  if (!preview) return null;
  const label = active ? `Last rendered frame of ${summary.fileName}, ${summary.completedFrames} of ${summary.totalFrames} done` : `Preview of ${summary.fileName}`;
  return (
    <figure className="live-frame" aria-label={active ? 'Last rendered frame' : 'Preview'}>
      <img className="preview" src={preview} alt={label} data-testid="job-preview" />
      <figcaption className="muted">{active ? `Last rendered frame (${summary.completedFrames} of ${summary.totalFrames} done)` : 'Preview from the farm'}</figcaption>
    </figure>
  );
}
