/** Environment variables that hold secrets: never handed to Blender, a file manager or a browser. */
export const SECRET_ENV_VARS: readonly string[] = ['RENDERDROP_API_KEY', 'RENDERDROP_WEBHOOK_SECRET'];

/** A copy of an environment without the secret variables, for starting other programs. */
export function withoutSecrets<T extends Record<string, string | undefined>>(env: T): T {
  const copy = { ...env };
  for (const name of SECRET_ENV_VARS) delete copy[name];
  return copy;
}
