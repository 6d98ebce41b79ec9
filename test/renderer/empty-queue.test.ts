import { describe, expect, it } from 'vitest';
import { emptyQueueHeading } from '../../src/renderer/components/queue/empty-queue';

describe('emptyQueueHeading', () => {
  it('says "No jobs yet" only when the job list could be read', () => {
    expect(emptyQueueHeading('ok')).toBe('No jobs yet');
    expect(emptyQueueHeading('unreachable')).not.toMatch(/No jobs/);
    expect(emptyQueueHeading('key-rejected')).not.toMatch(/No jobs/);
    expect(emptyQueueHeading('starting')).toBe('Getting ready');
  });
});
