import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatAnalysisSummary } from '../../src/cli/submit/format-analysis';
import { analysisForArtist, missingFiles, type PackSummary } from '../../src/core/packing';
import { warningWordsOf } from '../../src/host/jobs/job-warnings';
import { probeBlender } from '../../src/render-node/blender/probe';
import { requireBlender } from '../helpers/blender';
import { runCli } from '../helpers/cli';
import { startTestNode, type TestNode } from '../helpers/node';
import { makePackCorpus, type PackCorpus } from '../helpers/pack-corpus';
import { cliSetup, nodeJobs, type CliSetup } from './helpers/cli-setup';

const blenderPath = requireBlender();

/** Every piece of text one scene of the corpus gives the artist, by where it is shown. */
interface Told {
  scene: string;
  texts: { submit: string; pack: string; 'analysis shown': string; 'app words': string; 'pack --json warnings': string; 'pack --json problems': string };
  packing: PackSummary | null;
}

/** The warnings `pack` prints after its table (whose last column is the place inside the bundle by design). */
function warningsOfPack(stdout: string): string {
  const at = stdout.search(/^(Missing \(|Notes:)/m);
  return at < 0 ? '' : stdout.slice(at);
}

describe.skipIf(!blenderPath)('every packing warning of the corpus, as the CLI and the app word it (real node, real Blender)', () => {
  let work: string;
  let corpus: PackCorpus;
  let t: TestNode;
  let cli: CliSetup;
  const told: Told[] = [];

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'rd-warnings-'));
    await mkdir(join(work, 'corpus'));
    corpus = await makePackCorpus(blenderPath!, join(work, 'corpus'));
    t = await startTestNode({ blender: await probeBlender(blenderPath!, { timeoutMs: 60_000 }) });
    cli = await cliSetup(t.url, t.key);
    for (const scene of [corpus.scene, corpus.kinds, corpus.level1, corpus.loop]) {
      const json = await runCli(['pack', scene, '--json'], { env: cli.env, timeoutMs: 120_000 });
      expect(json.code, json.stderr).toBe(0);
      const parsed = JSON.parse(json.stdout);
      const plain = await runCli(['pack', scene], { env: cli.env, timeoutMs: 120_000 });
      const known = new Set((await cli.journal()).map((r) => r.id));
      const submit = await runCli(['submit', scene, '--yes', '--new', '--frames', '1'], { env: cli.env, timeoutMs: 170_000 });
      const record = (await cli.journal()).find((r) => !known.has(r.id))!;
      const job = (await nodeJobs(t)).find((j) => j.id === record.jobId);
      const renderConfig = { colorManagementPreset: 'default' as const };
      told.push({
        scene,
        packing: record.packing,
        texts: {
          'pack --json warnings': parsed.warnings.join('\n'),
          'pack --json problems': parsed.plan.dependencies.map((d: { problem: string | null }) => d.problem ?? '').join('\n'),
          pack: warningsOfPack(plain.stdout) + plain.stderr,
          submit: submit.stdout + submit.stderr,
          'analysis shown': formatAnalysisSummary({ fileName: 'x', jobId: 'j', analysis: analysisForArtist(job?.analysis, record.packing, 'disk'), renderConfig }).join('\n'),
          'app words': warningWordsOf(job?.analysis, record.packing).join('\n'),
        },
      });
    }
  });
  afterAll(async () => {
    await t?.stop();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('never names a path inside the bundle, the node\'s data folder or a job folder', () => {
    expect(told).toHaveLength(4);
    for (const { scene, texts } of told) {
      for (const [where, text] of Object.entries(texts)) {
        expect(text, `${where} of ${scene}`).not.toMatch(/_external|_libraries/);
        expect(text, `${where} of ${scene}`).not.toContain(t.dataDir);
        expect(text, `${where} of ${scene}`).not.toMatch(/\/jobs\/[0-9a-f-]{8,}/);
      }
    }
  });

  it('names each missing file once before the upload and once among the farm\'s warnings, never a file that travelled', () => {
    for (const { scene, texts, packing } of told) {
      const missing = missingFiles(packing, 'disk');
      for (const file of missing) {
        expect(texts.submit.split('\n').filter((l) => l.startsWith(`  ${file.path} (`)), `${file.path} of ${scene}`).toHaveLength(1);
        expect(texts.pack.split('\n').filter((l) => l.startsWith(`  ${file.path} (`)), `${file.path} of ${scene}`).toHaveLength(1);
        expect(texts['analysis shown'].split('\n').filter((l) => l.includes(`${file.path}`)).length, `${file.path} of ${scene}`).toBeLessThanOrEqual(1);
      }
      const travelled = (packing?.places ?? []).filter((p) => p.travels && (p.absent?.length ?? 0) === 0).map((p) => p.path);
      for (const path of travelled) expect(texts['analysis shown'], `${path} of ${scene}`).not.toContain(`Missing image "${path}`);
      expect(texts.submit).not.toContain('--no-pack');
    }
    const kinds = told.find((x) => x.scene === corpus.kinds)!;
    expect(kinds.texts.submit.split('\n').filter((l) => l.includes('audio/music.wav (')).length).toBe(1);
    const shot = told.find((x) => x.scene === corpus.scene)!;
    expect(shot.texts['app words']).not.toContain('files missing\nfiles missing');
    expect(shot.texts.submit).toMatch(/shot\.blend +uploading +with \d+ files \([0-9.]+ [KM]B\)/);
  });
});
