import { readScenePython, type ScenePython } from '../../blend/scene-python';
import type { AnalysisWarning } from '../../shared/api';

/** Longest expression quoted in a warning; a longer one is cut. */
const MAX_QUOTED = 120;

function quoted(expression: string): string {
  const flat = expression.replace(/\s+/g, ' ').replace(/`/g, "'");
  return flat.length > MAX_QUOTED ? `${flat.slice(0, MAX_QUOTED - 1)}…` : flat;
}

/**
 * What the review says of a scene's Python, in the artist's words. A node that does not run scene
 * Python (the default) warns of each driver (`python-driver`) and registered text block
 * (`python-module`) that will not run; one that does (`node serve --trust-python`) notes each as
 * running (`python-runs`). Nothing for a scene without any.
 */
export function scenePythonWarnings(found: ScenePython, runsScenePython: boolean): AnalysisWarning[] {
  const warnings: AnalysisWarning[] = [];
  for (const driver of found.drivers) {
    const what = `Driver on ${driver.owner} › ${driver.property} uses Python (\`${quoted(driver.expression)}\`)`;
    warnings.push(
      runsScenePython
        ? { code: 'python-runs', message: `${what}: this farm runs scene Python, so it is driven as in your Blender.` }
        : { code: 'python-driver', message: `${what}: this farm does not run scene Python, so the driver gives 0 here, not what it gives in your Blender.` },
    );
  }
  for (const module of found.modules) {
    warnings.push(
      runsScenePython
        ? { code: 'python-runs', message: `Text \`${module.name}\` runs as a module here, as in your Blender.` }
        : { code: 'python-module', message: `Text \`${module.name}\` runs as a module in your Blender, not here: this farm does not run scene Python, so what it sets up (functions for drivers, handlers) is missing.` },
    );
  }
  return warnings;
}

/**
 * The warnings of {@link scenePythonWarnings} for the .blend at `scenePath`; none when the reader
 * cannot read it (whether it renders at all is decided elsewhere).
 */
export async function readScenePythonWarnings(scenePath: string, runsScenePython: boolean): Promise<AnalysisWarning[]> {
  let found: ScenePython;
  try {
    found = await readScenePython(scenePath);
  } catch {
    return [];
  }
  return scenePythonWarnings(found, runsScenePython);
}
