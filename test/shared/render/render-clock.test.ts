import { describe, expect, it } from 'vitest';
import type { Job } from '../../../src/shared/api/job';
import { isWaitingInLine, renderClockOf, renderTimingOf, timeLeftFromFrameRate, type RenderTiming } from '../../../src/shared/render/render-clock';

const T0 = Date.parse('2026-01-01T10:00:00Z');
const at = (seconds: number) => new Date(T0 + seconds * 1000).toISOString();
const ms = (seconds: number) => T0 + seconds * 1000;

const timing = (overrides: Partial<RenderTiming>): RenderTiming => ({
  status: 'rendering',
  renderingSince: null,
  endedAt: null,
  completedFrames: 0,
  totalFrames: 0,
  waiting: null,
  running: false,
  ...overrides,
});

const job = (overrides: Partial<Job> & Record<string, unknown>): Job => ({ id: 'j1', status: 'rendering', workspaceId: 'w', createdAt: at(0), updatedAt: at(0), ...overrides });

describe('timeLeftFromFrameRate', () => {
  it('is the time spent rendering per frame times the frames left', () => {
    expect(timeLeftFromFrameRate(at(100), ms(140), 4, 12)).toBe(80);
  });

  it('counts down from the latest frame seen at the rate up to it, never below the frames after the one in progress', () => {
    // 4 frames in 40 s, seen all at once at 40 s: 80 s left then, 70 s ten seconds later.
    const seen = { firstAt: at(40), firstCount: 4, lastAt: at(40) };
    expect(timeLeftFromFrameRate(at(0), ms(40), 4, 12, seen)).toBe(80);
    expect(timeLeftFromFrameRate(at(0), ms(50), 4, 12, seen)).toBe(70);
    // A frame slower than the others: the 7 frames after it still take 70 s.
    expect(timeLeftFromFrameRate(at(0), ms(200), 4, 12, seen)).toBe(70);
    // Frames seen before this render began are not used.
    expect(timeLeftFromFrameRate(at(100), ms(140), 4, 12, { firstAt: at(50), firstCount: 4, lastAt: at(50) })).toBe(80);
  });

  it('leaves out the first frame seen, which also paid for Blender getting ready', () => {
    // Frame 1 took 20 s (loading), frames 2 to 4 took 5 s each: 8 frames left take 40 s, not 80 s.
    const seen = { firstAt: at(20), firstCount: 1, lastAt: at(35) };
    expect(timeLeftFromFrameRate(at(0), ms(35), 4, 12, seen)).toBe(40);
    expect(timeLeftFromFrameRate(at(0), ms(35), 4, 12)).toBe(70);
  });

  it('is unknown before the first frame, after the last, or with times that make no sense', () => {
    expect(timeLeftFromFrameRate(at(0), ms(40), 0, 12)).toBeNull();
    expect(timeLeftFromFrameRate(at(0), ms(40), 12, 12)).toBeNull();
    expect(timeLeftFromFrameRate(null, ms(40), 4, 12)).toBeNull();
    expect(timeLeftFromFrameRate('not a date', ms(40), 4, 12)).toBeNull();
    expect(timeLeftFromFrameRate(at(0), ms(-1), 4, 12)).toBeNull();
  });
});

describe('renderClockOf', () => {
  it('runs no clock while a job waits in line, whatever the time', () => {
    const waiting = timing({ status: 'booting', waiting: { jobsAhead: 2 } });
    expect(renderClockOf(waiting, ms(10))).toEqual({ phase: 'waiting', jobsAhead: 2, startsInSeconds: null, reason: null });
    expect(renderClockOf(waiting, ms(500))).toEqual(renderClockOf(waiting, ms(10)));
  });

  it('counts a booting job as waiting when the farm says nothing, and as starting when it says a render holds a slot', () => {
    expect(renderClockOf(timing({ status: 'booting' }), ms(5))).toEqual({ phase: 'waiting', jobsAhead: null, startsInSeconds: null, reason: null });
    expect(renderClockOf(timing({ status: 'booting', running: true }), ms(5))).toEqual({ phase: 'starting' });
  });

  it('takes time left from the frame rate since rendering began, not since the job joined the line', () => {
    // Waited 240 s, then rendered 6 of 12 frames in 25 s: 25 s are left, not (265 / 6) x 6.
    const clock = renderClockOf(timing({ renderingSince: at(240), completedFrames: 6, totalFrames: 12 }), ms(265));
    expect(clock).toEqual({ phase: 'rendering', renderedSeconds: 25, leftSeconds: 25, framesDone: false });
  });

  it('says the frames are done, not that it is estimating, once every frame is rendered or it packages them', () => {
    expect(renderClockOf(timing({ renderingSince: at(0), completedFrames: 24, totalFrames: 24 }), ms(50))).toMatchObject({ framesDone: true, leftSeconds: null });
    expect(renderClockOf(timing({ status: 'finalizing', renderingSince: at(0), completedFrames: 24, totalFrames: 24 }), ms(50))).toMatchObject({ framesDone: true });
    expect(renderClockOf(timing({ renderingSince: at(0), completedFrames: 0, totalFrames: 24 }), ms(5))).toMatchObject({ framesDone: false, leftSeconds: null });
  });

  it('counts only rendering in the time taken: a canceled job that only waited took none', () => {
    expect(renderClockOf(timing({ status: 'canceled', renderingSince: null, endedAt: at(300) }), ms(900))).toEqual({ phase: 'ended', renderedSeconds: null });
    expect(renderClockOf(timing({ status: 'canceled', renderingSince: at(200), endedAt: at(230) }), ms(900))).toEqual({ phase: 'ended', renderedSeconds: 30 });
    expect(renderClockOf(timing({ status: 'completed', renderingSince: at(240), endedAt: at(290) }), ms(900))).toEqual({ phase: 'ended', renderedSeconds: 50 });
  });

  it("takes a node's time left from the frames done over the frame rate, counting it down from when it was read", () => {
    // Frames get dearer along the shot: the node says 300 s where the plain rate says 80 s.
    const t = timing({ renderingSince: at(100), completedFrames: 4, totalFrames: 12, farmLeft: { seconds: 300, at: ms(140) } });
    expect(renderClockOf(t, ms(140))).toMatchObject({ phase: 'rendering', leftSeconds: 300 });
    expect(renderClockOf(t, ms(200))).toMatchObject({ phase: 'rendering', leftSeconds: 240 });
    // Once it ran out without a new reading, the frame rate says it.
    expect(renderClockOf(t, ms(460))).toMatchObject({ phase: 'rendering', leftSeconds: timeLeftFromFrameRate(at(100), ms(460), 4, 12) });
  });

  it('has no clock before the job is sent to render', () => {
    expect(renderClockOf(timing({ status: 'validated' }), ms(5))).toEqual({ phase: 'before' });
  });
});

describe('renderTimingOf', () => {
  const timeline = [
    { status: 'created', at: at(0) },
    { status: 'booting', at: at(10) },
    { status: 'rendering', at: at(250) },
    { status: 'finalizing', at: at(300) },
    { status: 'completed', at: at(302) },
  ];

  it('starts rendering at the first rendering of the timeline and ends at the first final status', () => {
    const t = renderTimingOf(job({ status: 'completed', timeline, progress: { completedFrames: 24, totalFrames: 24 }, updatedAt: at(400) }));
    expect(t).toMatchObject({ renderingSince: at(250), endedAt: at(302), completedFrames: 24, totalFrames: 24, waiting: null });
  });

  it('reads the jobs ahead from the node, and a null there as a render holding a slot', () => {
    const waiting = renderTimingOf(job({ status: 'booting', timeline: timeline.slice(0, 2), waiting: { jobsAhead: 3 } }));
    expect(waiting).toMatchObject({ renderingSince: null, waiting: { jobsAhead: 3 }, running: false });
    expect(renderTimingOf(job({ status: 'booting', waiting: null }))).toMatchObject({ waiting: null, running: true });
    expect(renderTimingOf(job({ status: 'booting' }))).toMatchObject({ waiting: null, running: false });
    expect(renderTimingOf(job({ status: 'booting', waiting: { jobsAhead: 'two' } }))).toMatchObject({ waiting: { jobsAhead: null } });
  });

  it("reads when a waiting job starts, and the farm's words for why it cannot say only then", () => {
    const starts = renderTimingOf(job({ status: 'booting', waiting: { jobsAhead: 2, startsInSeconds: 240 }, statusMessage: 'Two jobs ahead' }));
    expect(starts.waiting).toEqual({ jobsAhead: 2, startsInSeconds: 240, reason: null });
    const why = renderTimingOf(job({ status: 'booting', waiting: { jobsAhead: 0, startsInSeconds: null }, statusMessage: 'Waiting for a render worker tagged big-ram' }));
    expect(why.waiting).toEqual({ jobsAhead: 0, startsInSeconds: null, reason: 'Waiting for a render worker tagged big-ram' });
    expect(renderClockOf(why, ms(5))).toEqual({ phase: 'waiting', jobsAhead: 0, startsInSeconds: null, reason: 'Waiting for a render worker tagged big-ram' });
    expect(renderTimingOf(job({ status: 'booting', waiting: { jobsAhead: 1, startsInSeconds: -3 } })).waiting).toEqual({ jobsAhead: 1, startsInSeconds: null, reason: null });
  });

  it("reads a node's time left from the frames done, stamped when the job was read, and none once it ended or before it renders", () => {
    const estimate = { seconds: 90, low: 80, high: 100, basis: 'frames' };
    expect(renderTimingOf(job({ estimate }), null, ms(50)).farmLeft).toEqual({ seconds: 90, at: ms(50) });
    expect(renderTimingOf(job({ status: 'completed', estimate }), null, ms(50)).farmLeft).toBeNull();
    expect(renderTimingOf(job({ status: 'validated', estimate: { ...estimate, basis: 'sample' } }), null, ms(50)).farmLeft).toBeNull();
  });

  it('falls back to what was known before, then to the last update, for a farm without a timeline', () => {
    expect(renderTimingOf(job({ status: 'rendering', updatedAt: at(90) }), at(60)).renderingSince).toBe(at(60));
    expect(renderTimingOf(job({ status: 'rendering', updatedAt: at(90) })).renderingSince).toBe(at(90));
    expect(renderTimingOf(job({ status: 'booting', updatedAt: at(90) })).renderingSince).toBeNull();
  });
});

describe('isWaitingInLine', () => {
  it('is true for a job in line, false once a render holds a slot for it or it ended', () => {
    expect(isWaitingInLine(timing({ status: 'booting' }))).toBe(true);
    expect(isWaitingInLine(timing({ status: 'rendering', waiting: { jobsAhead: 1 } }))).toBe(true);
    expect(isWaitingInLine(timing({ status: 'booting', running: true }))).toBe(false);
    expect(isWaitingInLine(timing({ status: 'rendering' }))).toBe(false);
    expect(isWaitingInLine(timing({ status: 'canceled', waiting: { jobsAhead: 1 } }))).toBe(false);
  });
});
