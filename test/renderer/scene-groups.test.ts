import { describe, expect, it } from 'vitest';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { queueItems, type QueueItem } from '../../src/renderer/lib/queue-items';
import { groupRuns, sceneKey } from '../../src/renderer/lib/scene-groups';
import { removeQuestion } from '../../src/renderer/lib/remove-from-list';
import { QueueRow, type RowPlacement } from '../../src/renderer/components/queue/queue-row';
import { jobSummary } from '../fixtures/job-summary';

const at = (minute: number) => `2026-01-01T00:${String(minute).padStart(2, '0')}:00Z`;
const jobs = [
  jobSummary({ id: 'c', fileName: 'forest.blend', createdAt: at(30), status: 'rendering' }),
  jobSummary({ id: 'x', fileName: 'city.blend', createdAt: at(20), status: 'completed' }),
  jobSummary({ id: 'b', fileName: 'Forest.blend', createdAt: at(10), status: 'completed' }),
  jobSummary({ id: 'a', fileName: 'forest.blend', createdAt: at(5), status: 'failed' }),
];
const place: RowPlacement = { index: 0, tabbable: true, style: {}, measure: () => undefined };

function shape(items: QueueItem[]): string[] {
  return items.map((i) => (i.kind === 'job' ? `${i.job.id}${i.run ? ` run ${i.run.number}/${i.run.of}${i.run.runs.length > 0 ? ' head' : ''}` : ''}` : i.key));
}

function rowOf(item: QueueItem | undefined, checked = false): string {
  if (item?.kind !== 'job') throw new Error('expected a job');
  return renderToStaticMarkup(createElement(QueueRow, { job: item.job, submission: null, selected: false, checked, run: item.run, now: Date.parse(at(40)), place }));
}

describe('runs of the same scene', () => {
  it('follow one another where the latest stands, latest first, numbered, the latest heading them', () => {
    const grouped = groupRuns(queueItems([], [], jobs), new Set());
    expect(shape(grouped)).toEqual(['c run 3/3 head', 'b run 2/3', 'a run 1/3', 'x']);
  });

  it('fold away to the latest run when collapsed', () => {
    const grouped = groupRuns(queueItems([], [], jobs), new Set([sceneKey('FOREST.blend')]));
    expect(shape(grouped)).toEqual(['c run 3/3 head', 'x']);
    expect(grouped[0]).toMatchObject({ run: { collapsed: true } });
  });

  it('tell the rows of one scene apart by their run, in words and for screen readers', () => {
    const grouped = groupRuns(queueItems([], [], jobs), new Set());
    const second = rowOf(grouped[1], true);
    expect(second).toContain('aria-label="Forest.blend, run 2 of 3"');
    expect(second).toContain('Run 2 · ');
    expect(second).toMatch(/<input type="checkbox" class="row-check" [^>]*aria-label="Choose Forest.blend, run 2 of 3"/);
    expect(second).toMatch(/<input type="checkbox" class="row-check" [^>]*checked=""/);
    expect(second).not.toContain('runs-toggle');
    const head = rowOf(grouped[0]);
    expect(head).toMatch(/<button type="button" class="runs-toggle" aria-expanded="true" aria-label="3 runs of forest.blend"[^>]*><span aria-hidden="true">▾<\/span> 3 runs<\/button>/);
    expect(rowOf(groupRuns(queueItems([], [], jobs), new Set(['forest.blend']))[0])).toContain('aria-expanded="false"');
    expect(rowOf(grouped[3])).toContain('aria-label="city.blend"');
  });
});

describe('Remove from list, asked first', () => {
  it('says what stays and that jobs still at work are canceled first', () => {
    const one = removeQuestion([{ fileName: 'shot.blend', status: 'completed' }]);
    expect(one.title).toBe('Remove shot.blend from the list?');
    expect(one.message).toMatch(/Frames already in your download folder stay/);
    expect(one.message).not.toMatch(/canceled/);
    expect(removeQuestion([{ fileName: 'shot.blend', status: 'rendering' }]).message).toMatch(/its render is canceled first/);
    const many = removeQuestion([
      { fileName: 'a.blend', status: 'validated' },
      { fileName: 'b.blend', status: 'completed' },
      { fileName: 'c.blend', status: 'rendering' },
    ]);
    expect(many.title).toBe('Remove 3 jobs from the list?');
    expect(many.message).toMatch(/2 jobs still at work are canceled first/);
  });
});
