import { acquireFileLock } from '../../../src/node-common/file-lock';

/**
 * One contender of the take-over race: tries to take `<lock path>` once and prints `held` or `busy`,
 * keeping a held lock until stdin closes.
 */
const [path] = process.argv.slice(2);
try {
  const lock = await acquireFileLock(path!);
  process.stdout.write('held\n');
  process.stdin.resume();
  process.stdin.on('end', () => {
    lock.release();
    process.exit(0);
  });
} catch {
  process.stdout.write('busy\n');
  process.exit(0);
}
