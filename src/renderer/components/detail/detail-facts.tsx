import { type DownloadState, type FrameStripView, type JobDetail, describeOutput } from '../../../shared/contract';
import { isPlainRecord } from '../../../shared/plain-record';
import { command } from '../../lib';
import { formatDuration } from '../../../shared/text';
import { clockFact, estimatedTookText, renderClockOf } from '../../../shared/render';
import { JobWorkerBlocks, StudioFacts } from './detail-workers';

/** What the job delivers: format and depth as rendered (final settings), else as the scene sets them. */
function outputOf(detail: JobDetail): string | null {
  const final = detail.finalConfig;
  if (final && typeof final.outputFormat === 'string') return describeOutput(final.outputFormat, final.outputSettings);
  const a = detail.analysis;
  if (a) return describeOutput(a.outputFormat, isPlainRecord(a.outputSettings) ? a.outputSettings : null);
  return null;
}

/** Whether the job's folder exists on this computer: something was downloaded into it. */
export function hasFolder(download: DownloadState): boolean {
  return download.dir !== null && (download.state === 'done' || download.state === 'downloading' || download.filesDone > 0);
}

/**
 * The job's key facts: frames, time taken, the farm's render time (and what "normalized" means), output
 * and folder; on a Renderdrop node, its priority, tags and render workers.
 */
export function DetailFacts(props: { detail: JobDetail; frames?: FrameStripView | null }) {
  const s = props.detail.summary;
  const output = outputOf(props.detail);
  const counted = s.normalizedSeconds !== null && s.normalizedSeconds > 0 ? s.normalizedSeconds : null;
  const time = clockFact(renderClockOf(s, Date.now()));
  return (
    <>
    <dl className="facts">
      <dt>Frames</dt>
      <dd>
        {s.completedFrames} of {s.totalFrames} rendered
      </dd>
      <dt>{time.label}</dt>
      <dd data-testid="detail-time">{time.text}</dd>
      {props.detail.estimateAgainstTaken && (
        <>
          <dt>Estimate</dt>
          <dd data-testid="detail-estimate">{estimatedTookText(props.detail.estimateAgainstTaken.estimatedSeconds, props.detail.estimateAgainstTaken.tookSeconds)}</dd>
        </>
      )}
      {counted !== null && (
        <>
          <dt>Render time</dt>
          <dd>
            {formatDuration(counted)}
            <span className="fact-note">Normalized: the farm’s rendering time, adjusted to the speed of its machines.</span>
          </dd>
        </>
      )}
      {output && (
        <>
          <dt>Output</dt>
          <dd>{output}</dd>
        </>
      )}
      <dt>Folder</dt>
      <dd>
        {hasFolder(s.download) ? <span className="path-text">{s.download.dir}</span> : <span className="fact-inline">Not downloaded yet</span>}{' '}
        {hasFolder(s.download) && (
          <button type="button" className="link" onClick={() => void command('jobs.openFolder', { jobId: s.id }, { what: 'open the folder' })}>
            Open folder
          </button>
        )}
      </dd>
      <StudioFacts summary={s} frames={props.frames ?? null} />
    </dl>
    <JobWorkerBlocks summary={s} />
    </>
  );
}
