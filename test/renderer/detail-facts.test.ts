import { describe, expect, it } from 'vitest';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { DetailFacts } from '../../src/renderer/components/detail/detail-facts';
import type { DownloadState, JobDetail } from '../../src/shared/contract/job-views';
import { jobSummary } from '../fixtures/job-summary';

const none: DownloadState = { state: 'none', dir: null, filesDone: 0, filesTotal: 0, bytes: 0, error: null };

function facts(download: DownloadState, status: 'failed' | 'completed' = 'completed'): string {
  const detail: JobDetail = {
    summary: jobSummary({ id: 'j1', status, download }),
    analysis: null,
    requestedConfig: null,
    finalConfig: null,
    differences: [],
    timeline: [],
    outputs: [],
    hasPreview: false,
  };
  return renderToStaticMarkup(createElement(DetailFacts, { detail }));
}

describe('the Folder fact', () => {
  it('offers "Open folder" only for a folder something was downloaded into', () => {
    expect(facts(none)).not.toContain('Open folder');
    expect(facts(none)).toContain('Not downloaded yet');
    const waiting = facts({ ...none, state: 'queued', dir: '/home/artist/Renders/shot-1a2b' }, 'failed');
    expect(waiting).not.toContain('Open folder');
    expect(waiting).not.toContain('/home/artist/Renders/shot-1a2b');
    const done = facts({ ...none, state: 'done', dir: '/home/artist/Renders/shot-1a2b', filesDone: 3, filesTotal: 3 });
    expect(done).toContain('Open folder');
    expect(done).toContain('/home/artist/Renders/shot-1a2b');
  });
});
