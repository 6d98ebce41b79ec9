import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { EXIT } from '../../src/cli/exit-codes';
import { main } from '../../src/cli/index';
import { ODD_ANSWERS, ODD_JOB_ID, type OddAnswer } from '../helpers/odd-api-server';
import { EXIT_CODES, oddServers, STACK } from './helpers/odd-servers';
import { testDeps } from './helpers/test-deps';

/** Every command that talks to a server, with its arguments (`SCENE` is replaced by a real .blend). */
const COMMANDS: string[][] = [
  ['submit', 'SCENE', '--yes', '--json'],
  ['submit', 'SCENE', '--yes', '--wait', '--download', 'OUT'],
  ['resume', '--yes'],
  ['jobs'],
  ['jobs', '--json', '--status', 'rendering'],
  ['status', ODD_JOB_ID],
  ['status', ODD_JOB_ID.slice(0, 6), '--json'],
  ['cancel', ODD_JOB_ID],
  ['watch'],
  ['watch', '--json'],
  ['download', ODD_JOB_ID, '--dir', 'OUT'],
  ['login'],
];

const ANSWERS = Object.keys(ODD_ANSWERS) as OddAnswer[];

const odd = oddServers();

/** What a person must never see, whatever the server answered. */
function expectPlainError(code: number | null, output: string): void {
  expect(output).not.toMatch(STACK);
  expect(output).not.toMatch(/\bat (?:async )?[\w.<>]+ \(|TypeError|ReferenceError|\[object Object\]|Unexpected error/);
  expect(code !== null && EXIT_CODES.has(code), `exit code ${code}`).toBe(true);
}

describe('every command against a server that answers oddly', () => {
  for (const answer of ANSWERS) {
    describe(`answering ${answer}`, () => {
      for (const command of COMMANDS) {
        it(`renderdrop ${command.join(' ')} ends with a message and an exit code, never a stack trace`, async () => {
          const stdin = new PassThrough().end(command[0] === 'login' ? 'RJ-odd-server-key' : '');
          const t = testDeps(await odd.environment(answer), { stdin });
          const code = await main(['node', 'renderdrop', ...odd.argsFor(command)], t.deps);
          const output = t.stdout() + t.stderr();
          expectPlainError(code, output);
          if (code !== EXIT.ok) expect(output.trim(), 'a failure says why').not.toBe('');
        });
      }
    });
  }

  it('answers a contract break with exit 1 and the server\'s answer named', async () => {
    const t = testDeps(await odd.environment('wrong-values'));
    expect(await main(['node', 'renderdrop', 'status', ODD_JOB_ID], t.deps)).toBe(EXIT.failure);
    expect(t.stderr()).toContain('GET /jobs/{id} does not follow the API');
    expect(t.stderr()).toContain('data.');
  });
});
