import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlendError } from '../../../src/blend/reader/blend-error';
import { BlendFileError } from '../../../src/blend/reader/blend-file-error';
import { severOutsidePaths } from '../../../src/blend/pack/sever-outside-paths';
import { traceBlends } from '../../../src/blend/trace/trace-blends';
import { MUTATIONS, seededRandom, wrapped } from '../helpers/blend-mutations';
import { LAYOUTS, SyntheticBlend } from '../helpers/synthetic-blend';

/** Cases per run: a few thousand mutations, spread over every base file and kind of damage. */
const CASES = 2400;
/** Every this many cases the file is also severed (the same reading as the trace, then a rewrite). */
const SEVER_EVERY = 3;
/** A case that has not settled by then is a hang (the reader's loops are bounded; this only catches a regression). */
const HANG_MS = 20_000;
const SEED = Number(process.env.RENDERDROP_FUZZ_SEED ?? 20_240_611);

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rd-fuzz-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Small real-shaped scenes of every layout the writer knows, with every kind of path it writes. */
function baseFiles(): Buffer[] {
  return LAYOUTS.map(([, options]) => {
    const blend = new SyntheticBlend(options);
    blend.addImage({ name: 'Wood', path: '//textures/wood.png' });
    blend.addImage({ name: 'Tiles', path: '//udim/t.<UDIM>.png', source: 6, tiles: [1001, 1002] });
    blend.addImage({ name: 'Logo', path: '//logo.png', packed: true });
    blend.addLibrary({ name: 'props.blend', path: '/elsewhere/props.blend' });
    blend.addLibrary({ name: 'near.blend', path: '//near.blend' });
    blend.addSound({ name: 'Hum', path: '//hum.wav' });
    blend.addText({ name: 'notes.py', path: '//notes.py' });
    return blend.build();
  });
}

type Outcome = 'read' | BlendFileError['code'] | 'other blend error';

/** Trace the file (and sever its outside paths when asked): each either works or fails with a BlendError. */
async function exercise(path: string, root: string, sever: boolean): Promise<Outcome> {
  let outcome: Outcome = 'read';
  const steps: (() => Promise<unknown>)[] = [() => traceBlends(path)];
  if (sever) steps.push(() => severOutsidePaths(path, root, { nowhere: '.nowhere', tempDir: root }));
  for (const step of steps) {
    try {
      await step();
    } catch (error) {
      if (!(error instanceof BlendError)) throw error;
      if (error.message.includes('\n')) throw new Error(`a message of more than one line: ${error.message}`, { cause: error });
      outcome = error instanceof BlendFileError ? error.code : 'other blend error';
    }
  }
  return outcome;
}

function withinBudget<T>(work: Promise<T>, label: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${label} did not settle: a hang`)), HANG_MS);
  });
  return Promise.race([work, hang]).finally(() => clearTimeout(timer));
}

describe('the reader on damaged files', () => {
  it(`answers every mutation of real-shaped .blend files with a reading or a BlendError (seed ${SEED}, ${CASES} cases)`, { timeout: 120_000 }, async () => {
    const random = seededRandom(SEED);
    const bases = baseFiles();
    const kinds = Object.keys(MUTATIONS);
    const tally = new Map<string, number>();
    for (let i = 0; i < CASES; i++) {
      const kind = kinds[i % kinds.length]!;
      const base = bases[Math.floor(i / kinds.length) % bases.length]!;
      const damaged = MUTATIONS[kind]!(base, random);
      const { bytes, wrapper } = wrapped(damaged, random);
      const path = join(dir, `${i}.blend`);
      await writeFile(path, bytes);
      const label = `case ${i} (${kind}, ${wrapper}) of seed ${SEED}; run again with RENDERDROP_FUZZ_SEED=${SEED}`;
      let outcome: Outcome;
      try {
        outcome = await withinBudget(exercise(path, dir, i % SEVER_EVERY === 0), label);
      } catch (error) {
        const detail = error instanceof Error ? `${error.name}: ${error.message}\n${error.stack ?? ''}` : String(error);
        expect.fail(`${label}: ${detail}`);
      }
      tally.set(outcome, (tally.get(outcome) ?? 0) + 1);
      await rm(path, { force: true });
    }
    console.log(`fuzz seed ${SEED}: ${[...tally].map(([k, n]) => `${k} ${n}`).join(', ')}`);
    expect(tally.get('read') ?? 0, 'some mutations still read').toBeGreaterThan(0);
    expect(tally.get('corrupt') ?? 0, 'some mutations are damaged files').toBeGreaterThan(0);
    expect(tally.get('truncated') ?? 0, 'some mutations end early').toBeGreaterThan(0);
  });
});
