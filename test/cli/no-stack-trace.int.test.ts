import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../src/cli/exit-codes';
import type { HostileServer } from '../helpers/hostile-server';
import { ODD_ANSWERS, ODD_JOB_ID, startOddServer, type OddAnswer } from '../helpers/odd-api-server';
import { blendBytes, tempDir, writeScene } from '../helpers/scene-files';
import { runCli } from '../helpers/cli';

/** A line of a JavaScript stack trace, or a source location of this repository. */
const STACK = /^\s+at \S|\((?:file:\/\/)?\/\S+\.(?:ts|js):\d+:\d+\)|node:internal/m;
const EXIT_CODES = new Set<number>(Object.values(EXIT));

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

/** Commands run as a real process, one against each kind of odd server. */
const picked: [OddAnswer, string[]][] = [
  ['other-ids', ['watch']],
  ['other-ids', ['submit', 'SCENE', '--yes', '--json']],
  ['wrong-values', ['jobs']],
  ['wrong-values', ['status', ODD_JOB_ID]],
  ['bad-urls', ['download', ODD_JOB_ID, '--dir', 'OUT']],
  ['odd-errors', ['cancel', ODD_JOB_ID]],
  ['html', ['resume', '--yes']],
];

describe('the renderdrop process against servers that answer oddly', () => {
  it('prints no stack trace and exits with one of its exit codes', async () => {
    const runs = await Promise.all(
      picked.map(async ([answer, command]) => ({ answer, command, result: await runCli(argsFor(command), { env: environment(servers.get(answer)!, await tempDir()), timeoutMs: 60_000 }) })),
    );
    for (const { answer, command, result } of runs) {
      const what = `${answer}: renderdrop ${command.join(' ')}\n${result.stdout}${result.stderr}`;
      expect(result.stdout + result.stderr, what).not.toMatch(STACK);
      expect(result.code !== null && EXIT_CODES.has(result.code), what).toBe(true);
    }
    expect(runs.find((r) => r.command[0] === 'watch')!.result.code).toBe(EXIT.failure);
  });
});
