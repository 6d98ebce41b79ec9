import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Storage } from '../../../src/render-node/disk/storage';
import { JobLogFiles } from '../../../src/render-node/logs/job-log-files';
import { JobLogs } from '../../../src/render-node/logs/job-logs';
import { pathStripper } from '../../../src/render-node/logs/strip-paths';
import { MAX_WORKER_LOG_BYTES, receiveWorkerLog, workerLabel } from '../../../src/render-node/logs/worker-log-intake';
import { WorkerLogSender } from '../../../src/render-node/worker/log-sender';

const JOB = '0b8f0a47-3d3e-4a8f-9a57-1f1f4f1c2a11';

describe('path stripping', () => {
  it('replaces the most specific folder first, with either kind of slash, and leaves other paths alone', () => {
    const strip = pathStripper([
      { path: '/srv/node/jobs/abc', placeholder: '<job>' },
      { path: '/srv/node', placeholder: '<node-data>' },
      { path: '/home/ann/', placeholder: '~' },
    ]);
    expect(strip("Read blend: '/srv/node/jobs/abc/scene/shot.blend'")).toBe("Read blend: '<job>/scene/shot.blend'");
    expect(strip('tmp /srv/node/tmp/renderdrop-render-1/plan.json')).toBe('tmp <node-data>/tmp/renderdrop-render-1/plan.json');
    expect(strip('C:\\x and \\srv\\node\\jobs\\abc\\frames\\a.png')).toBe('C:\\x and <job>\\frames\\a.png');
    expect(strip('/home/ann/.config/blender is read')).toBe('~/.config/blender is read');
    expect(strip('/usr/share/blender/3.4/scripts')).toBe('/usr/share/blender/3.4/scripts');
    expect(strip('/home/anna/x.png and /home/ann')).toBe('/home/anna/x.png and ~');
    expect(strip('/srv/node-2/jobs (/srv/node)')).toBe('/srv/node-2/jobs (<node-data>)');
  });

  it('ignores folders too short to be told from other text', () => {
    expect(pathStripper([{ path: '/', placeholder: '<root>' }])('/usr/bin')).toBe('/usr/bin');
  });
});

describe('a job log on disk', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rd-log-'));
  });
  afterEach(async () => rm(dir, { recursive: true, force: true }));

  const line = (n: number) => `line ${String(n).padStart(4, '0')} ${'x'.repeat(20)}\n`;

  it('keeps everything while it fits, and follows from an offset', () => {
    const log = new JobLogFiles(dir, { headBytes: 1000, segmentBytes: 200, segments: 2 });
    log.append([line(1), line(2)]);
    const first = log.read(0);
    expect(first.text).toBe(line(1) + line(2));
    expect(first.cutBytes).toBe(0);
    log.append([line(3)]);
    const next = log.read(first.nextOffset);
    expect(next.text).toBe(line(3));
    expect(next.offset).toBe(first.nextOffset);
    expect(log.read(next.nextOffset).text).toBe('');
    expect(log.read(10 ** 9).nextOffset).toBe(next.nextOffset);
  });

  it('keeps the head and the tail of a long log, says what was cut, and keeps offsets stable', async () => {
    const cap = { headBytes: 100, segmentBytes: 120, segments: 2 };
    const log = new JobLogFiles(dir, cap);
    const all = Array.from({ length: 200 }, (_, i) => line(i));
    let followed = '';
    let since = 0;
    for (let i = 0; i < all.length; i += 3) {
      log.append(all.slice(i, i + 3));
      const slice = log.read(since);
      followed += slice.text;
      since = slice.nextOffset;
    }
    const written = Buffer.byteLength(all.join(''));
    const whole = log.read(0);
    expect(whole.nextOffset).toBe(written);
    expect(whole.cutBytes).toBeGreaterThan(written - 400);
    expect(whole.text.startsWith(line(0) + line(1) + line(2))).toBe(true);
    expect(whole.text.endsWith(line(198) + line(199))).toBe(true);
    expect(whole.text).toContain(`[… ${whole.cutBytes} bytes of this log were left out here to keep it short …]`);
    expect(Buffer.byteLength(whole.text)).toBeLessThan(cap.headBytes + cap.segmentBytes * cap.segments + 100);
    expect((await readdir(dir)).length).toBe(1 + cap.segments);
    // A reader that kept up with the log saw every line, in order.
    expect(followed).toBe(all.join(''));
    // The log reopens as it was (a restarted node).
    const reopened = new JobLogFiles(dir, cap);
    expect(reopened.read(0)).toEqual(whole);
  });
});

describe('JobLogs', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'rd-logs-'));
  });
  afterEach(async () => rm(dataDir, { recursive: true, force: true }));

  it("keeps a job's lines in its folder with the node's folders and the home folder hidden", () => {
    const storage = new Storage(dataDir);
    const logs = new JobLogs(storage, { homeDir: '/home/artist' });
    logs.section(JOB, 'Scene analysis');
    const write = logs.writer(JOB);
    write(`Read blend: "${storage.sceneDir(JOB)}/shot.blend"`);
    write(`Saved: '${join(storage.tempDir, 'renderdrop-render-x', 'frame_0001.png')}'`);
    write('Color management: /home/artist/.config/blender/3.4 not found');
    logs.writer(JOB, '[box-2] ')('Fra:1 Mem:12M');
    write('y'.repeat(5000));
    const { text } = logs.read(JOB);
    expect(text.split('\n').slice(0, 5)).toEqual([
      '── Scene analysis ──',
      'Read blend: "<job>/scene/shot.blend"',
      "Saved: '<node-data>/tmp/renderdrop-render-x/frame_0001.png'",
      'Color management: ~/.config/blender/3.4 not found',
      '[box-2] Fra:1 Mem:12M',
    ]);
    expect(text).not.toContain(dataDir);
    expect(text.split('\n')[5]!.length).toBeLessThan(2100);
    logs.close();
    expect(new JobLogs(storage).read(JOB).text).toBe(text);
  });

  it('writes a heading only before the first line of a part, so a part that never ran has none', () => {
    const logs = new JobLogs(new Storage(dataDir));
    logs.writer(JOB, '', 'Scene analysis');
    logs.section(JOB, 'Failed: not a scene');
    const render = logs.writer(JOB, '', 'Render');
    render('Fra:1');
    render('Fra:2');
    expect(logs.read(JOB).text).toBe('── Failed: not a scene ──\n── Render ──\nFra:1\nFra:2\n');
  });

  it("answers an empty log for a job nothing was written for", () => {
    const logs = new JobLogs(new Storage(dataDir));
    expect(logs.read(JOB)).toEqual({ text: '', offset: 0, nextOffset: 0, cutBytes: 0 });
  });
});

describe("a render worker's lines", () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'rd-wlogs-'));
  });
  afterEach(async () => rm(dataDir, { recursive: true, force: true }));

  it("reach the job's log under the worker's name, stripped again of the node's folders", async () => {
    const logs = new JobLogs(new Storage(dataDir));
    const body = `Fra:1 Mem:8M | Rendering\r\nSaved: '${dataDir}/x.png'\n`;
    const kept = await receiveWorkerLog(logs, JOB, 'box\u001b[31m-2', { body: Readable.from([Buffer.from(body)]), length: Buffer.byteLength(body) });
    expect(kept).toBe(2);
    expect(logs.read(JOB).text).toBe("[box31m-2] Fra:1 Mem:8M | Rendering\n[box31m-2] Saved: '<node-data>/x.png'\n");
  });

  it('are refused above the size a request may carry', async () => {
    const logs = new JobLogs(new Storage(dataDir));
    const big = Buffer.alloc(MAX_WORKER_LOG_BYTES + 1, 'a');
    await expect(receiveWorkerLog(logs, JOB, 'w', { body: Readable.from([big]), length: big.length })).rejects.toMatchObject({ statusCode: 413 });
    await expect(receiveWorkerLog(logs, JOB, 'w', { body: Readable.from([big]), length: 10 })).rejects.toMatchObject({ statusCode: 413 });
    expect(logs.read(JOB).text).toBe('');
  });

  it('name the worker with printable characters only', () => {
    expect(workerLabel(undefined)).toBe('worker');
    expect(workerLabel('  ')).toBe('worker');
    expect(workerLabel('render-box 2\n[fake]')).toBe('render-box 2fake');
  });

  it('are sent by the worker in order, batched, stripped, and a refused batch does not stop the rest', async () => {
    const sent: string[] = [];
    let calls = 0;
    const sender = new WorkerLogSender(
      async (text) => {
        calls++;
        if (calls === 1) throw new Error('node away');
        sent.push(text);
      },
      (line) => line.replace('/cache/w1', '<worker>'),
      10_000,
    );
    sender.line('first');
    sender.flush();
    sender.line('Read /cache/w1/scenes/a.blend');
    sender.line('Fra:1');
    await sender.finish();
    expect(sent).toEqual(['Read <worker>/scenes/a.blend\nFra:1\n']);
  });
});
