import { SubmissionJournal } from '../../../../src/core/journal/submission-journal';

/**
 * Another Renderdrop process for lock tests: takes the lock of submission `<id>` in `<data dir>`,
 * prints `locked`, and releases it when its stdin closes (or dies holding it when killed).
 */
const [dataDir, id] = process.argv.slice(2);
const lock = await new SubmissionJournal({ dataDir: dataDir! }).lock(id!);
process.stdout.write('locked\n');
process.stdin.resume();
process.stdin.on('end', () => {
  lock.release();
  process.exit(0);
});
