import type { JobDetail } from '../../../shared/contract';
import { command } from '../../lib';
import { countOf, formatBytes } from '../../../shared/text';

const STATE_WORDS = { downloaded: 'on this computer', partial: 'partly downloaded', missing: 'not downloaded' } as const;

/** The job's output files: how many are on this computer, the list on demand, and downloading them again. */
export function DetailOutputs(props: { detail: JobDetail }) {
  const { outputs, summary } = props.detail;
  if (outputs.length === 0) return null;
  const here = outputs.filter((o) => o.state === 'downloaded').length;
  return (
    <section aria-label="Output files">
      <h3>Output files</h3>
      <p>
        {here} of {countOf(outputs.length, 'file')} on this computer.
      </p>
      <details>
        <summary>List the files</summary>
        <ul className="outputs">
          {outputs.map((o) => (
            <li key={o.relativePath}>
              <span className="path-text">{o.relativePath}</span>{' '}
              <span className={`file-state file-${o.state}`}>
                {STATE_WORDS[o.state]}
                {o.state === 'downloaded' && o.bytes !== null ? ` (${formatBytes(o.bytes)})` : ''}
              </span>
            </li>
          ))}
        </ul>
      </details>
      <div className="actions">
        <button type="button" onClick={() => void command('jobs.download', { jobId: summary.id }, { what: 'download the frames' })}>
          {here === outputs.length ? 'Download again' : 'Download'}
        </button>
      </div>
    </section>
  );
}
