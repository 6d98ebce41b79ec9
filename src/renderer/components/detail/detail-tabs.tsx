import { useEffect, useRef, useState, type KeyboardEvent } from 'react';

/** The parts of the job details: everything about the job, or what Blender printed. */
export type DetailTab = 'details' | 'log';

const TABS: { id: DetailTab; label: string }[] = [
  { id: 'details', label: 'Details' },
  { id: 'log', label: 'Log' },
];

/** The id of a tab's button and of its panel. */
export const tabIds = (tab: DetailTab) => ({ tab: `detail-tab-${tab}`, panel: `detail-panel-${tab}` });

/** The tab shown for a job: Details whenever another job is opened. */
export function useDetailTab(jobId: string | null): [DetailTab, (tab: DetailTab) => void] {
  const [state, setState] = useState<{ jobId: string | null; tab: DetailTab }>({ jobId, tab: 'details' });
  const tab = state.jobId === jobId ? state.tab : 'details';
  return [tab, (next) => setState({ jobId, tab: next })];
}

/** The tab buttons of the job details (arrow keys, Home and End move between them). */
export function DetailTabs({ tab, onChange }: { tab: DetailTab; onChange: (tab: DetailTab) => void }) {
  const buttons = useRef<Record<string, HTMLButtonElement | null>>({});
  const [moved, setMoved] = useState(false);
  useEffect(() => {
    if (moved) buttons.current[tab]?.focus();
  }, [tab, moved]);
  const onKeyDown = (e: KeyboardEvent) => {
    const index = TABS.findIndex((t) => t.id === tab);
    const next = e.key === 'ArrowRight' ? index + 1 : e.key === 'ArrowLeft' ? index - 1 : e.key === 'Home' ? 0 : e.key === 'End' ? TABS.length - 1 : null;
    if (next === null) return;
    e.preventDefault();
    setMoved(true);
    onChange(TABS[(next + TABS.length) % TABS.length]!.id);
  };
  return (
    <div className="detail-tabs" role="tablist" aria-label="Job details" onKeyDown={onKeyDown}>
      {TABS.map((t) => (
        <button
          key={t.id}
          ref={(el) => {
            buttons.current[t.id] = el;
          }}
          type="button"
          role="tab"
          id={tabIds(t.id).tab}
          aria-selected={tab === t.id}
          aria-controls={tabIds(t.id).panel}
          tabIndex={tab === t.id ? 0 : -1}
          onClick={() => onChange(t.id)}
        >
          {t.label}
        </button>
      ))}
    </div>
  );
}
