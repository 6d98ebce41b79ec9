import { type JobDetail, describeOutput } from '../../../shared/contract';
import { isPlainRecord } from '../../../shared/plain-record';
import { command } from '../../lib/command';
import { formatDuration } from '../../../shared/text';
import { secondsBetween } from '../../lib/job-times';

/** What the job delivers: format and depth as rendered (final settings), else as the scene sets them. */
function outputOf(detail: JobDetail): string | null {
  const final = detail.finalConfig;
  if (final && typeof final.outputFormat === 'string') return describeOutput(final.outputFormat, final.outputSettings);
  const a = detail.analysis;
  if (a) return describeOutput(a.outputFormat, isPlainRecord(a.outputSettings) ? a.outputSettings : null);
  return null;
}

/** The job's key facts: frames, time taken, the farm's render time (and what "normalized" means), output and folder. */
export function DetailFacts(props: { detail: JobDetail }) {
  const s = props.detail.summary;
  const output = outputOf(props.detail);
  const counted = s.normalizedSeconds !== null && s.normalizedSeconds > 0 ? s.normalizedSeconds : null;
  return (
    <dl className="facts">
      <dt>Frames</dt>
      <dd>
        {s.completedFrames} of {s.totalFrames} rendered
      </dd>
      <dt>Time taken</dt>
      <dd>{formatDuration(secondsBetween(s.startedAt, s.endedAt, Date.now()))}</dd>
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
        {s.download.dir ? <span className="path-text">{s.download.dir}</span> : <span className="fact-inline">Not downloaded yet </span>}
        <button type="button" className="link" onClick={() => void command('jobs.openFolder', { jobId: s.id }, { what: 'open the folder' })}>
          Open folder
        </button>
      </dd>
    </dl>
  );
}
