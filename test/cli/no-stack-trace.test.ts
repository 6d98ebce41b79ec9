import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../src/cli/exit-codes';
import { main } from '../../src/cli/index';
import type { HostileServer } from '../helpers/hostile-server';
import { ODD_ANSWERS, ODD_JOB_ID, startOddServer, type OddAnswer } from '../helpers/odd-api-server';
import { blendBytes, tempDir, writeScene } from '../helpers/scene-files';
import { testDeps } from './helpers/test-deps';

/** A line of a JavaScript stack trace, or a source location of this repository. */
const STACK = /^\s+at \S|\((?:file:\/\/)?\/\S+\.(?:ts|js):\d+:\d+\)|node:internal/m;
const EXIT_CODES = new Set<number>(Object.values(EXIT));

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

let scene: string;
let out: string;
const servers = new Map<OddAnswer, HostileServer>();

beforeAll(async () => {
  scene = await writeScene(await tempDir(), 'shot.blend', blendBytes(10_000));
  out = await tempDir();
  for (const answer of ANSWERS) servers.set(answer, await startOddServer(answer));
});
afterAll(async () => {
  await Promise.all([...servers.values()].map((s) => s.close()));
});

function argsFor(command: string[]): string[] {
  return command.map((arg) => (arg === 'SCENE' ? scene : arg === 'OUT' ? out : arg));
}

function environment(server: HostileServer, configDir: string): Record<string, string> {
  return { RENDERDROP_BASE_URL: server.url, RENDERDROP_API_KEY: 'RJ-odd-server-key', RENDERDROP_CONFIG_DIR: configDir };
}

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
          const t = testDeps(environment(servers.get(answer)!, await tempDir()), { stdin });
          const code = await main(['node', 'renderdrop', ...argsFor(command)], t.deps);
          const output = t.stdout() + t.stderr();
          expectPlainError(code, output);
          if (code !== EXIT.ok) expect(output.trim(), 'a failure says why').not.toBe('');
        });
      }
    });
  }

  it('answers a contract break with exit 1 and the server\'s answer named', async () => {
    const t = testDeps(environment(servers.get('wrong-values')!, await tempDir()));
    expect(await main(['node', 'renderdrop', 'status', ODD_JOB_ID], t.deps)).toBe(EXIT.failure);
    expect(t.stderr()).toContain('GET /jobs/{id} does not follow the API');
    expect(t.stderr()).toContain('data.');
  });
});
