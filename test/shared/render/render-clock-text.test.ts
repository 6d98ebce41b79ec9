import { describe, expect, it } from 'vitest';
import { clockFact, clockShortText, rowTimeText, startsInShort, startsInText, waitingText, waitingWords } from '../../../src/shared/render/render-clock-text';

describe('waiting words', () => {
  it('say how many jobs are ahead, or just that it waits when that is unknown', () => {
    expect(waitingText(2)).toBe('Waiting — 2 jobs ahead');
    expect(waitingText(1)).toBe('Waiting — 1 job ahead');
    expect(waitingText(null)).toBe('Waiting');
    expect(waitingText(0)).toBe('Waiting');
  });
});

describe('when a waiting job starts', () => {
  it('says it in rounded minutes or hours', () => {
    expect(startsInText(20)).toBe('Starts in under a minute');
    expect(startsInText(240)).toBe('Starts in about 4 min');
    expect(startsInText(269)).toBe('Starts in about 4 min');
    expect(startsInText(3600)).toBe('Starts in about 1 h');
    expect(startsInText(3600 + 25 * 60)).toBe('Starts in about 1 h 25 min');
  });

  it('says when it starts, else why the farm cannot say, else the jobs ahead', () => {
    expect(waitingWords({ jobsAhead: 2, startsInSeconds: 240, reason: null })).toBe('Starts in about 4 min');
    expect(waitingWords({ jobsAhead: 0, startsInSeconds: null, reason: 'Waiting for a render worker tagged big-ram' })).toBe('Waiting for a render worker tagged big-ram');
    expect(waitingWords({ jobsAhead: 2, startsInSeconds: null, reason: null })).toBe('Waiting — 2 jobs ahead');
  });

  it('fits the row in a few characters: under a minute, minutes, hours', () => {
    expect([30, 240, 3900, 7200].map(startsInShort)).toEqual(['in < 1 min', 'in ~4 min', 'in ~1 h 05', 'in ~2 h']);
  });

  it('reaches the row, the details and the list column', () => {
    const clock = { phase: 'waiting', jobsAhead: 1, startsInSeconds: 240, reason: null } as const;
    expect(rowTimeText(clock)).toEqual({ main: 'Waiting', sub: 'in ~4 min', title: 'Starts in about 4 min — 1 job ahead; the clock starts when it renders.' });
    expect(clockFact(clock)).toEqual({ label: 'Time', text: 'Starts in about 4 min' });
    expect(clockShortText(clock)).toBe('Starts in about 4 min');
    const why = { phase: 'waiting', jobsAhead: 0, startsInSeconds: null, reason: 'Waiting for a render worker tagged gpu' } as const;
    expect(clockFact(why).text).toBe('Waiting for a render worker tagged gpu');
    expect(rowTimeText(why)?.title).toBe('Waiting for a render worker tagged gpu; the clock starts when it renders.');
  });
});

describe('the queue row time column', () => {
  it('shows a waiting job as waiting, with no clock', () => {
    expect(rowTimeText({ phase: 'waiting', jobsAhead: 2, startsInSeconds: null, reason: null })).toEqual({ main: 'Waiting', sub: '2 jobs ahead', title: 'Waiting — 2 jobs ahead; the clock starts when it renders.' });
    expect(rowTimeText({ phase: 'waiting', jobsAhead: null, startsInSeconds: null, reason: null })).toMatchObject({ main: 'Waiting', sub: null });
    expect(rowTimeText({ phase: 'starting' })).toMatchObject({ main: 'Starting', sub: null });
  });

  it('shows time spent rendering and time left, "estimating" only before the first frame and "finishing" after the last', () => {
    expect(rowTimeText({ phase: 'rendering', renderedSeconds: 25, leftSeconds: 25, framesDone: false })).toEqual({ main: '25 s', sub: '25 s left', title: 'Time spent rendering' });
    expect(rowTimeText({ phase: 'rendering', renderedSeconds: 3, leftSeconds: null, framesDone: false })?.sub).toBe('estimating');
    expect(rowTimeText({ phase: 'rendering', renderedSeconds: 50, leftSeconds: null, framesDone: true })?.sub).toBe('finishing');
  });

  it('shows the rendering time of an ended job, and nothing before the render is asked for', () => {
    expect(rowTimeText({ phase: 'ended', renderedSeconds: 50 })).toMatchObject({ main: '50 s' });
    expect(rowTimeText({ phase: 'ended', renderedSeconds: null })).toEqual({ main: '–', sub: null, title: 'It did not render' });
    expect(rowTimeText({ phase: 'before' })).toBeNull();
  });
});

describe('the time fact of the details and the command line', () => {
  it('says waiting, rendering with time left, or the time taken rendering', () => {
    expect(clockFact({ phase: 'waiting', jobsAhead: 2, startsInSeconds: null, reason: null })).toEqual({ label: 'Time', text: 'Waiting — 2 jobs ahead' });
    expect(clockFact({ phase: 'rendering', renderedSeconds: 65, leftSeconds: 30, framesDone: false })).toEqual({ label: 'Time', text: 'Rendering for 1 min 05 s, about 30 s left' });
    expect(clockFact({ phase: 'rendering', renderedSeconds: 4, leftSeconds: null, framesDone: false }).text).toBe('Rendering for 4 s, time left known after the first frame');
    expect(clockFact({ phase: 'rendering', renderedSeconds: 50, leftSeconds: null, framesDone: true }).text).toBe('Rendering for 50 s, all frames done, finishing');
    expect(clockFact({ phase: 'ended', renderedSeconds: 50 })).toEqual({ label: 'Time taken', text: '50 s rendering' });
    expect(clockFact({ phase: 'ended', renderedSeconds: null })).toEqual({ label: 'Time taken', text: 'It did not render' });
  });

  it('is short in a list column', () => {
    expect(clockShortText({ phase: 'waiting', jobsAhead: 1, startsInSeconds: null, reason: null })).toBe('Waiting — 1 job ahead');
    expect(clockShortText({ phase: 'rendering', renderedSeconds: 62, leftSeconds: 30, framesDone: false })).toBe('1 min 02 s, 30 s left');
    expect(clockShortText({ phase: 'ended', renderedSeconds: 50 })).toBe('50 s');
    expect(clockShortText({ phase: 'before' })).toBe('-');
  });
});
