import { join, dirname, posix } from 'node:path';
import { z } from 'zod';
import { analysisWarningSchema, sceneDependencySchema, type AnalysisWarning, type SceneDependency } from '../../shared/api';
import { isPlainRecord } from '../../shared/plain-record';
import { describeMissing, isAbsent, lastSegment, missingSentence, type ArtistPaths } from './missing-files';
import type { FarmPlace, PackSummary } from './pack-summary';

/** The parts of a farm's scene analysis that name files. */
export interface FarmFindings {
  warnings: AnalysisWarning[];
  dependencies: SceneDependency[];
}

interface Match {
  place: FarmPlace;
  /** The name of the frame or tile the farm named, when it named one of a numbered place. */
  name: string | null;
}

/**
 * What the farm's analysis of a packed scene says about files, told as the artist knows them. The farm
 * names paths inside the bundle (`//_external/...`, a library's copy under `_libraries/`); each is
 * mapped back through the pack summary to the artist's own file. A missing-file warning for a file
 * that travelled is dropped; one for a file that is truly missing names it by the artist's path (see
 * ArtistPaths) and says why; one the summary does not know keeps its words, with a path inside the
 * bundle replaced by the artist's. Without a summary (a zip, a .blend sent alone) nothing changes.
 */
export function findingsForArtist(findings: FarmFindings, summary: PackSummary | null, paths: ArtistPaths): FarmFindings {
  if (summary === null) return findings;
  const warnings: AnalysisWarning[] = [];
  const told = new Set<string>();
  const tell = (warning: AnalysisWarning) => {
    if (warning.code === 'missing-dependency' && warning.path !== undefined) {
      if (told.has(warning.path)) return;
      told.add(warning.path);
    }
    warnings.push(warning);
  };
  for (const warning of findings.warnings) {
    if (warning.code !== 'missing-dependency' || warning.path === undefined) {
      tell(warning);
      continue;
    }
    const match = matchPlace(warning.path, findings.dependencies, summary.places);
    if (match?.place.travels && (match.name === null || !isAbsent(match.place, match.name))) continue;
    if (match) {
      const file = describeMissing(match.place, paths, match.name);
      tell({ ...warning, path: file.path, message: missingSentence(file) });
      continue;
    }
    const moved = relocated(warning.path, findings.dependencies, summary.places, paths);
    tell(moved === null ? warning : { ...warning, path: moved, message: warning.message.split(warning.path).join(moved) });
  }
  const dependencies = findings.dependencies.map((dependency): SceneDependency => {
    const match = matchPlace(dependency.path, findings.dependencies, summary.places);
    if (!match) return dependency;
    const path = describeMissing(match.place, paths, match.name).path;
    return { ...dependency, path, resolvedPath: null, exists: dependency.exists || match.place.travels };
  });
  return { warnings, dependencies };
}

/**
 * A farm's scene analysis (as sent: read defensively) with its warnings and dependencies told as the
 * artist knows them (findingsForArtist); anything else in it is left as it is.
 */
export function analysisForArtist(analysis: unknown, summary: PackSummary | null, paths: ArtistPaths): unknown {
  if (summary === null || !isPlainRecord(analysis)) return analysis;
  const warnings = z.array(analysisWarningSchema).safeParse(analysis.warnings);
  const dependencies = z.array(sceneDependencySchema).safeParse(analysis.dependencies);
  const mapped = findingsForArtist({ warnings: warnings.success ? warnings.data : [], dependencies: dependencies.success ? dependencies.data : [] }, summary, paths);
  return {
    ...analysis,
    ...(warnings.success ? { warnings: mapped.warnings } : {}),
    ...(dependencies.success ? { dependencies: mapped.dependencies } : {}),
  };
}

/**
 * The place of the summary a path named by the farm stands for: through the farm's own dependency
 * entry for it (its `resolvedPath` inside the bundle), else by the path as stored; a frame or tile of
 * a numbered place matches that place.
 */
function matchPlace(path: string, dependencies: readonly SceneDependency[], places: readonly FarmPlace[]): Match | null {
  const inBundle = whereInBundle(path, dependencies);
  const same = (p: FarmPlace) => (inBundle !== null ? p.inBundle === inBundle : p.inBundle === null && slashed(p.stored) === slashed(path));
  const exact = places.find(same);
  if (exact) return { place: exact, name: null };
  const key = numberedKey(inBundle ?? slashed(path));
  const numbered = places.find((p) => p.numbered && (inBundle !== null ? p.inBundle !== null && numberedKey(p.inBundle) === key : p.inBundle === null && numberedKey(slashed(p.stored)) === key));
  return numbered ? { place: numbered, name: lastSegment(path) } : null;
}

/** Where the farm found (or looked for) a path inside the bundle, or null when outside it. */
function whereInBundle(path: string, dependencies: readonly SceneDependency[]): string | null {
  const own = dependencies.find((d) => d.path === path);
  if (own) return own.resolvedPath;
  const key = numberedKey(slashed(path));
  const pattern = dependencies.find((d) => !d.exists && numberedKey(slashed(d.path)) === key);
  if (pattern) return pattern.resolvedPath === null ? null : posix.join(posix.dirname(pattern.resolvedPath), lastSegment(path));
  if (!path.startsWith('//')) return null;
  const joined = posix.normalize(slashed(path).slice(2));
  return joined === '..' || joined.startsWith('../') ? null : joined;
}

/**
 * A path inside the bundle the summary has no place for, as the artist's path: through the travelling
 * place whose folder shares the most folders with it (the bundle keeps folders whole below its top
 * folders). Null when the path is not inside the bundle or shares no folder with anything that travelled.
 */
function relocated(path: string, dependencies: readonly SceneDependency[], places: readonly FarmPlace[], paths: ArtistPaths): string | null {
  if (paths === 'stored') return null;
  const inBundle = whereInBundle(path, dependencies);
  if (inBundle === null) return null;
  let best: { folder: string; path: string; depth: number } | null = null;
  for (const place of places) {
    if (!place.travels || place.inBundle === null) continue;
    const folder = posix.dirname(place.inBundle);
    const depth = sharedFolders(folder, inBundle);
    if (depth > 0 && (best === null || depth > best.depth)) best = { folder, path: place.path, depth };
  }
  if (best === null) return null;
  return join(dirname(best.path), ...posix.relative(best.folder, inBundle).split('/'));
}

function sharedFolders(folder: string, path: string): number {
  const a = folder === '.' ? [] : folder.split('/');
  const b = path.split('/').slice(0, -1);
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return n;
}

/** A path with frame numbers, `#` runs, `<UDIM>` and `<UVTILE>` made the same for every frame or tile. */
function numberedKey(path: string): string {
  return path.replace(/<UDIM>/g, '*').replace(/<UVTILE>/g, 'u*_v*').replace(/#+|\d+/g, '*');
}

function slashed(path: string): string {
  return path.replace(/\\/g, '/');
}
