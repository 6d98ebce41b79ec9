import { availableParallelism } from 'node:os';
import { ConfigError } from '../../core/errors';
import type { ThisComputerSettings } from '../../shared/contract';
import { type AppPreferences, MAX_RENDERS_AT_ONCE, type StoredNodeSettings } from '../environment';
import type { LocalNode } from '../profiles';

/** One render at a time, Blender on every core: the node's defaults. */
export const DEFAULT_NODE_SETTINGS: StoredNodeSettings = { renders: 1, threads: null };

/** "This computer"'s render settings as Settings shows them, with the limits they may take; null without a local node. */
export function thisComputerView(prefs: AppPreferences, node: LocalNode | null, cores = availableParallelism()): ThisComputerSettings | null {
  if (!node) return null;
  const saved = prefs.thisComputer ?? DEFAULT_NODE_SETTINGS;
  return { ...saved, cores, maxRenders: MAX_RENDERS_AT_ONCE };
}

/** Why these settings cannot be used on a computer with `cores` cores, or null when they can. */
export function nodeSettingsProblem(settings: StoredNodeSettings, cores: number): string | null {
  if (settings.renders < 1 || settings.renders > MAX_RENDERS_AT_ONCE) return `Renders at once is a number from 1 to ${MAX_RENDERS_AT_ONCE}.`;
  if (settings.threads !== null && (settings.threads < 1 || settings.threads > cores)) return `Blender threads is a number from 1 to ${cores} (the cores of this computer), or all cores.`;
  return null;
}

/**
 * Saves "This computer"'s render settings and applies them to its running node: renders already
 * running keep theirs, the next ones follow the new settings.
 */
export async function applyThisComputer(prefs: AppPreferences, node: LocalNode | null, settings: StoredNodeSettings, cores = availableParallelism()): Promise<void> {
  if (!node) throw new ConfigError('The render node of this computer is not running, so its settings cannot change now.', { code: 'no-local-node' });
  const problem = nodeSettingsProblem(settings, cores);
  if (problem) throw new ConfigError(problem, { code: 'bad-node-settings' });
  await prefs.setThisComputer(settings);
  node.configure(settings);
}
