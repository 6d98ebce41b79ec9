import { describe, expect, it } from 'vitest';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { QueueRow, type RowPlacement } from '../../src/renderer/components/queue/queue-row';
import { jobSummary } from '../fixtures/job-summary';

const place: RowPlacement = { index: 0, tabbable: true, style: {}, measure: () => undefined };

describe('a queue row\'s button', () => {
  it('has its visible words in its accessible name ("Submit again", axe: label-content-name-mismatch)', () => {
    const job = jobSummary({ id: 'j1', fileName: 'shot.blend', status: 'canceled', canSubmitAgain: true });
    const html = renderToStaticMarkup(createElement(QueueRow, { job, submission: null, selected: false, checked: false, now: Date.parse('2026-01-01T00:10:00Z'), place }));
    const button = /<button type="button" class="row-primary"[^>]*aria-label="([^"]+)"[^>]*>([^<]+)<\/button>/.exec(html);
    expect(button?.[2]).toBe('Submit again');
    expect(button?.[1]).toContain('Submit again');
    expect(button?.[1]).toContain('shot.blend');
  });
});

describe('a queue row\'s progress line', () => {
  const render = (job: ReturnType<typeof jobSummary>) =>
    renderToStaticMarkup(createElement(QueueRow, { job, submission: null, selected: false, checked: false, now: Date.parse('2026-01-01T00:10:00Z'), place }));

  it('says how many frames of a rendering job are already in its folder', () => {
    const download = { state: 'downloading' as const, dir: '/home/ana/Renderdrop/shot-0b8f6f4e', filesDone: 3, filesTotal: 8, bytes: 0, error: null };
    const html = render(jobSummary({ id: 'j1', fileName: 'shot.blend', status: 'rendering', completedFrames: 5, totalFrames: 8, download }));
    expect(html).toContain('5 / 8 frames · 3 on disk');
  });

  it('says nothing about the folder while no frame is there', () => {
    const html = render(jobSummary({ id: 'j1', fileName: 'shot.blend', status: 'rendering', completedFrames: 5, totalFrames: 8 }));
    expect(html).toContain('5 / 8 frames');
    expect(html).not.toContain('on disk');
  });
});
