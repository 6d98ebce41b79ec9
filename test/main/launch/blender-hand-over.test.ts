import { describe, expect, it } from 'vitest';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readHandoverFile } from '../../../src/host/handover';
import { listenForBlender } from '../../../src/main/launch/blender-hand-over';
import { FileHandOver } from '../../../src/main/launch/file-hand-over';
import { blendBytes, tempDir } from '../../helpers/scene-files';

describe('the desktop app listens for the Blender add-on', () => {
  it('passes a handed-over scene down the path of files opened with the app', async () => {
    const configDir = await tempDir('rd-desktop-handover-');
    const scene = join(configDir, 'shot.blend');
    await writeFile(scene, blendBytes());
    const opened = new FileHandOver();
    const received: string[][] = [];
    const listener = await listenForBlender(configDir, opened);
    const info = await readHandoverFile(configDir);
    expect(info?.url).toBe(listener?.info.url);

    const answer = await fetch(info!.url, { method: 'POST', headers: { authorization: `Bearer ${info!.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ scene }) });
    expect(answer.status).toBe(202);
    expect(opened.pending).toEqual([scene]);
    opened.receiveWith((paths) => received.push(paths));
    expect(received).toEqual([[scene]]);

    await listener!.close();
    expect(await readHandoverFile(configDir)).toBeNull();
  });

  it('starts without the listener when handover.json cannot be written', async () => {
    const dir = await tempDir('rd-desktop-handover-');
    const notAFolder = join(dir, 'config');
    await writeFile(notAFolder, 'a file where the folder should be');
    expect(await listenForBlender(notAFolder, new FileHandOver())).toBeNull();
  });
});
