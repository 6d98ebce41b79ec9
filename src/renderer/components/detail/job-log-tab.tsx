import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { firstTellingLine } from '../../../shared/contract';
import { useJobLog } from './use-job-log';

/** Lines shown at most; Copy takes the whole log. */
const SHOWN_LINES = 1000;
/** Lines shown above the one that explains a failure. */
const CONTEXT_LINES = 3;

/** Which lines to show: the last ones, or, for a failed job, from just before the one that explains it. */
function shownLines(text: string, failed: boolean): { lines: string[]; first: number; telling: number | null; total: number } {
  const all = text.split('\n');
  if (all.at(-1) === '') all.pop();
  const telling = failed ? firstTellingLine(all) : null;
  let first = Math.max(0, all.length - SHOWN_LINES);
  if (telling !== null && telling < first) first = Math.max(0, telling - CONTEXT_LINES);
  return { lines: all.slice(first, first + SHOWN_LINES), first, telling, total: all.length };
}

/** Copy text, through the clipboard API where the page may use it, else through a selection. */
async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.append(area);
    area.select();
    const copied = document.execCommand('copy');
    area.remove();
    return copied;
  }
}

/**
 * The Log tab of the job details: the last lines Blender printed (new ones as they come while the job
 * runs, kept in view unless the artist scrolled up), a button that copies the whole log, and for a
 * failed job the view opened on the lines that explain the failure. A farm that keeps no log: why the
 * job failed, and that there is no log.
 */
export function JobLogTab({ jobId, active, failed }: { jobId: string; active: boolean; failed: boolean }) {
  const log = useJobLog(jobId, active);
  const [copied, setCopied] = useState<string | null>(null);
  if (log.kind === 'loading') return <p className="muted">Loading the log…</p>;
  if (log.kind === 'error') return <p className="hint hint-error">The log could not be read: {log.message}</p>;
  if (log.kind === 'none') {
    return (
      <div className="job-log-none">
        {log.failure && (
          <p>
            <strong>Why it failed:</strong> {log.failure}
          </p>
        )}
        <p className="muted">This farm keeps no log of what Blender printed.</p>
      </div>
    );
  }
  const copy = async () => setCopied((await copyText(log.text)) ? 'The whole log is copied.' : 'The log could not be copied. Select its lines and copy them.');
  return (
    <div className="job-log">
      <div className="job-log-bar">
        <button type="button" onClick={() => void copy()} disabled={log.text === ''}>
          Copy the whole log
        </button>
        <span role="status" className="muted">
          {copied}
        </span>
      </div>
      {log.text === '' ? (
        <p className="muted">{active ? 'Blender has printed nothing for this job yet.' : 'Blender printed nothing for this job.'}</p>
      ) : (
        <LogLines key={jobId} text={log.text} active={active} failed={failed} cut={log.cutBytes > 0} />
      )}
    </div>
  );
}

/** Where the box is scrolled: to the line that explains a failure, at the bottom, or where the artist put it. */
type Placement = 'telling' | 'bottom' | 'artist';

/** The lines themselves, opened on the failure, or kept at the bottom while new lines come. */
function LogLines({ text, active, failed, cut }: { text: string; active: boolean; failed: boolean; cut: boolean }) {
  const box = useRef<HTMLPreElement>(null);
  const tellingLine = useRef<HTMLSpanElement>(null);
  const placement = useRef<Placement | null>(null);
  const setTop = useRef(0);
  const { lines, first, telling, total } = useMemo(() => shownLines(text, failed), [text, failed]);
  const place = useCallback(() => {
    const el = box.current;
    if (!el) return;
    if (placement.current === null) placement.current = tellingLine.current ? 'telling' : 'bottom';
    if (placement.current === 'telling' && tellingLine.current) {
      const lineHeight = tellingLine.current.offsetHeight || 16;
      el.scrollTop = tellingLine.current.offsetTop - el.offsetTop - lineHeight * 2;
    } else if (placement.current === 'bottom') el.scrollTop = el.scrollHeight;
    setTop.current = el.scrollTop;
  }, []);
  useLayoutEffect(() => {
    if (telling !== null && placement.current !== 'artist') placement.current = 'telling';
    place();
  }, [lines, telling, place]);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const onScroll = () => {
      if (Math.abs(el.scrollTop - setTop.current) < 2) return;
      const atBottom = el.scrollHeight - el.scrollTop - el.clientHeight < 24;
      placement.current = atBottom && active ? 'bottom' : 'artist';
    };
    const resized = new ResizeObserver(() => place());
    resized.observe(el);
    el.addEventListener('scroll', onScroll);
    return () => {
      resized.disconnect();
      el.removeEventListener('scroll', onScroll);
    };
  }, [active, place]);
  return (
    <>
      {(first > 0 || total > first + lines.length || cut) && (
        <p className="muted job-log-note">
          {total > lines.length ? `Showing ${lines.length.toLocaleString()} of ${total.toLocaleString()} lines. ` : ''}
          {cut ? 'The middle of this long log was left out; its start and end are kept. ' : ''}
          Copy the whole log to see every line kept.
        </p>
      )}
      <pre ref={box} className="job-log-lines" tabIndex={0} aria-label="What Blender printed">
        {lines.map((line, i) => {
          const isTelling = first + i === telling;
          return (
            <span key={first + i} ref={isTelling ? tellingLine : undefined} className={isTelling ? 'log-line log-line-telling' : 'log-line'}>
              {line}
              {'\n'}
            </span>
          );
        })}
      </pre>
    </>
  );
}
