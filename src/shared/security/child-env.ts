/** Environment variables that hold secrets: never handed to Blender, a file manager or a browser. */
export const SECRET_ENV_VARS: readonly string[] = ['RENDERDROP_API_KEY', 'RENDERDROP_WEBHOOK_SECRET'];

/** A copy of an environment without the secret variables, for starting other programs. */
export function withoutSecrets<T extends Record<string, string | undefined>>(env: T): T {
  const copy = { ...env };
  for (const name of SECRET_ENV_VARS) delete copy[name];
  return copy;
}

/**
 * What Blender may see of the node's environment: where programs, libraries, fonts and temporary files
 * are, the locale and time zone, the display, Blender's and OpenColorIO's own settings, and which GPUs to
 * use. Everything else (cloud credentials, tokens, the node's own secrets) stays out of reach of the
 * scenes it opens.
 */
const BLENDER_ENV_NAMES = new Set([
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'LANG',
  'LANGUAGE',
  'TZ',
  'TMPDIR',
  'TEMP',
  'TMP',
  'DISPLAY',
  'WAYLAND_DISPLAY',
  'XDG_RUNTIME_DIR',
  'XDG_CONFIG_HOME',
  'XDG_CACHE_HOME',
  'XDG_DATA_HOME',
  'XDG_DATA_DIRS',
  'LD_LIBRARY_PATH',
  'DYLD_LIBRARY_PATH',
  'OCIO',
  'OMP_NUM_THREADS',
  'CUDA_VISIBLE_DEVICES',
  'HIP_VISIBLE_DEVICES',
  'ONEAPI_DEVICE_SELECTOR',
  'SYSTEMROOT',
  'SystemRoot',
  'WINDIR',
  'COMSPEC',
  'PATHEXT',
  'USERPROFILE',
  'APPDATA',
  'LOCALAPPDATA',
  'PROGRAMDATA',
  'PROGRAMFILES',
  'PROGRAMFILES(X86)',
  'HOMEDRIVE',
  'HOMEPATH',
  'NUMBER_OF_PROCESSORS',
  'PROCESSOR_ARCHITECTURE',
]);
const BLENDER_ENV_PREFIXES = ['LC_', 'BLENDER_', 'CYCLES_', 'NVIDIA_'];

/** Whether an environment variable may be passed to Blender. */
export function isBlenderEnvName(name: string): boolean {
  return BLENDER_ENV_NAMES.has(name) || BLENDER_ENV_PREFIXES.some((prefix) => name.startsWith(prefix));
}

/** The environment Blender is started with: only the variables {@link isBlenderEnvName} allows. */
export function blenderEnvironment(env: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (value !== undefined && isBlenderEnvName(name)) out[name] = value;
  return out;
}
