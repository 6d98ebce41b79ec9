import { BlenderPathError, findBlender, type BlenderSource, type FindBlenderOptions, type FindBlenderResult } from './locate';
import { checkEevee, probeBlender, type BlenderInfo, type EeveeCheck } from './probe';
import type { FfmpegTools } from '../video';

/** The oldest Blender the node supports. */
export const MIN_BLENDER_VERSION: readonly [number, number] = [2, 93];

/** What `renderdrop node doctor` found out about this machine's Blender. */
export interface DoctorReport {
  found: BlenderInfo | null;
  /** How the Blender was found (explicit path, BLENDER_PATH, PATH, an install folder). */
  source: BlenderSource | null;
  /** Every path looked at, in order. */
  searched: string[];
  /** Blocking problems and warnings, each a sentence saying what to do. */
  problems: string[];
  /** The EEVEE test render, when Blender was found. */
  eevee: EeveeCheck | null;
  /** True when the node can render (warnings alone do not make it false). */
  ok: boolean;
  /** FFmpeg, which makes the videos of scenes whose output is a video: found, none, or not looked for. */
  video?: { found: FfmpegTools | null } | null;
}

/** Input of {@link runDoctor}; the last three are injectable for tests. */
export interface DoctorOptions {
  explicit?: string;
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
  locate?: (options: FindBlenderOptions) => FindBlenderResult;
  probe?: (path: string) => Promise<BlenderInfo>;
  eevee?: (path: string) => Promise<EeveeCheck>;
  /** Looks for FFmpeg (absent: not looked for). */
  ffmpeg?: () => Promise<FfmpegTools | null>;
}

function installHint(platform: NodeJS.Platform): string {
  const how =
    platform === 'win32'
      ? 'Install it from https://www.blender.org/download/ (or Steam)'
      : platform === 'darwin'
        ? 'Install it from https://www.blender.org/download/ into /Applications'
        : 'Install it from https://www.blender.org/download/ or your package manager (e.g. `apt install blender`, snap or flatpak)';
  return `${how}, then set BLENDER_PATH to the blender executable or pass --blender <path>.`;
}

function versionBelow(parts: readonly number[], min: readonly number[]): boolean {
  for (let i = 0; i < min.length; i++) {
    const d = (parts[i] ?? 0) - (min[i] ?? 0);
    if (d !== 0) return d < 0;
  }
  return false;
}

/**
 * Find Blender, ask it what it can do and try a tiny EEVEE render; report each problem with what to
 * do about it. Never throws: a wrong `--blender` path is a problem in the report.
 */
export async function runDoctor(options: DoctorOptions): Promise<DoctorReport> {
  const locate = options.locate ?? findBlender;
  const probe = options.probe ?? ((path: string) => probeBlender(path, { timeoutMs: 60_000 }));
  const eeveeCheck = options.eevee ?? ((path: string) => checkEevee(path, { timeoutMs: 60_000 }));
  const problems: string[] = [];
  const report = (partial: Partial<DoctorReport>): DoctorReport => ({
    found: null,
    source: null,
    searched: [],
    eevee: null,
    ok: false,
    ...partial,
    problems,
  });

  let located: FindBlenderResult;
  try {
    located = locate({ explicit: options.explicit, env: options.env, platform: options.platform });
  } catch (error) {
    if (error instanceof BlenderPathError) {
      problems.push(error.message);
      return report({ searched: options.explicit ? [options.explicit] : [] });
    }
    throw error;
  }
  const envPath = options.env.BLENDER_PATH;
  if (envPath && located.source !== 'BLENDER_PATH' && located.source !== 'explicit') {
    problems.push(`BLENDER_PATH is set to ${envPath}, but no Blender executable is there; fix or unset it.`);
  }
  if (located.path === null) {
    problems.push(`Blender was not found. ${installHint(options.platform)}`);
    return report({ searched: located.searched });
  }

  let info: BlenderInfo;
  try {
    info = await probe(located.path);
  } catch (error) {
    problems.push(
      `Blender at ${located.path} did not answer: ${error instanceof Error ? error.message : String(error)} Check that it starts (run it with --version), or point --blender at another one.`,
    );
    return report({ source: located.source, searched: located.searched });
  }

  let ok = true;
  if (versionBelow(info.versionParts, MIN_BLENDER_VERSION)) {
    ok = false;
    problems.push(
      `Blender ${info.version} is too old: Renderdrop needs ${MIN_BLENDER_VERSION.join('.')} or newer. Install a newer Blender and point BLENDER_PATH or --blender at it.`,
    );
  }
  if (!info.openImageDenoise && !info.optix) {
    problems.push(
      'Warning: this Blender has no denoiser (built without OpenImageDenoise, no OptiX GPU): renders that ask for denoising will have it switched off. The builds from blender.org include OpenImageDenoise.',
    );
  }
  const eevee = await eeveeCheck(located.path).catch(
    (error: unknown): EeveeCheck => ({ usable: false, reason: error instanceof Error ? error.message : String(error), gpu: null }),
  );
  info = { ...info, eeveeUsable: eevee.usable };
  const finding = eeveeFinding(eevee);
  if (finding) problems.push(finding);
  const video = options.ffmpeg ? { found: await options.ffmpeg() } : null;
  if (video && !video.found) problems.push(NO_FFMPEG);
  return report({ found: info, source: located.source, searched: located.searched, eevee, ok, video });
}

/**
 * What a failed EEVEE test render means for renders, as `node doctor` lists it and `node serve` and
 * `node worker` log it at start; null when EEVEE works.
 */
export function eeveeFinding(eevee: EeveeCheck): string | null {
  if (eevee.usable) return null;
  return `Warning: EEVEE cannot render here (${eevee.reason ?? 'no reason given'}): a node renders scenes set to EEVEE or Workbench with Cycles, saying so in the review before the render starts, and a render worker leaves them to workers that can.`;
}

const NO_FFMPEG =
  'Warning: FFmpeg was not found: scenes whose output is a video come back as PNG frames only, and the review says so. Install FFmpeg (e.g. `apt install ffmpeg`) to make their videos on this node.';

const SOURCE_LABEL: Record<BlenderSource, string> = {
  explicit: 'given with --blender',
  BLENDER_PATH: 'from BLENDER_PATH',
  PATH: 'found on PATH',
  'program-files': 'found in Program Files',
  steam: 'found in the Steam library',
  applications: 'found in Applications',
  system: 'found in a system folder',
  snap: 'installed as a snap',
  flatpak: 'installed as a flatpak',
  opt: 'found in /opt',
};

/** The doctor report as text for a terminal. */
export function formatDoctorReport(report: DoctorReport): string {
  const lines: string[] = [];
  const info = report.found;
  if (info) {
    lines.push(`Blender ${info.version}: ${info.path}${report.source ? ` (${SOURCE_LABEL[report.source]})` : ''}`);
    lines.push(`  Cycles devices:   ${info.cyclesDevices.join(', ')}`);
    const denoisers = [info.openImageDenoise ? 'OpenImageDenoise' : null, info.optix ? 'OptiX' : null].filter(Boolean);
    lines.push(`  Denoisers:        ${denoisers.length ? denoisers.join(', ') : 'none'}`);
    lines.push(`  View transforms:  ${info.viewTransforms.join(', ')}${info.hasAces ? '' : ' (no ACES)'}`);
    const eevee = report.eevee;
    lines.push(`  EEVEE:            ${eevee ? (eevee.usable ? `usable${eevee.gpu ? ` (${eevee.gpu})` : ''}` : 'not usable') : 'not checked'}`);
    if (report.video) lines.push(`  Videos:           ${report.video.found ? `made with ${report.video.found.version}` : 'not made (no FFmpeg)'}`);
  } else {
    lines.push('Blender: not found');
    if (report.searched.length) {
      lines.push('  Looked in:');
      for (const path of report.searched) lines.push(`    ${path}`);
    }
  }
  if (report.problems.length) {
    lines.push('', 'Problems:');
    for (const problem of report.problems) lines.push(`  - ${problem}`);
  }
  lines.push('', report.ok ? 'This machine can render with Renderdrop.' : 'This machine cannot render with Renderdrop yet.');
  return lines.join('\n');
}
