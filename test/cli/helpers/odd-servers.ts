import { afterAll, beforeAll } from 'vitest';
import { EXIT } from '../../../src/cli/exit-codes';
import type { HostileServer } from '../../helpers/hostile-server';
import { ODD_ANSWERS, startOddServer, type OddAnswer } from '../../helpers/odd-api-server';
import { blendBytes, tempDir, writeScene } from '../../helpers/scene-files';

/** A line of a JavaScript stack trace, or a source location of this repository. */
export const STACK = /^\s+at \S|\((?:file:\/\/)?\/\S+\.(?:ts|js):\d+:\d+\)|node:internal/m;
/** Every exit code the CLI documents. */
export const EXIT_CODES = new Set<number>(Object.values(EXIT));

/** One server per kind of odd answer, a scene and an output folder, for the commands run against them. */
export interface OddServers {
  server(answer: OddAnswer): HostileServer;
  /** The command's arguments with `SCENE` and `OUT` replaced by the scene and the output folder. */
  argsFor(command: string[]): string[];
  /** The environment that points the CLI at `answer`'s server, with its own settings folder. */
  environment(answer: OddAnswer): Promise<Record<string, string>>;
}

/** Registers the hooks of the enclosing file that start a server for every kind of odd answer. */
export function oddServers(): OddServers {
  let scene: string;
  let out: string;
  const servers = new Map<OddAnswer, HostileServer>();
  beforeAll(async () => {
    scene = await writeScene(await tempDir(), 'shot.blend', blendBytes(10_000));
    out = await tempDir();
    for (const answer of Object.keys(ODD_ANSWERS) as OddAnswer[]) servers.set(answer, await startOddServer(answer));
  });
  afterAll(async () => {
    await Promise.all([...servers.values()].map((s) => s.close()));
  });
  return {
    server: (answer) => servers.get(answer)!,
    argsFor: (command) => command.map((arg) => (arg === 'SCENE' ? scene : arg === 'OUT' ? out : arg)),
    environment: async (answer) => ({ RENDERDROP_BASE_URL: servers.get(answer)!.url, RENDERDROP_API_KEY: 'RJ-odd-server-key', RENDERDROP_CONFIG_DIR: await tempDir() }),
  };
}
