/**
 * The environment for a Blender the node starts, with its temp folder (`TMPDIR`, `TEMP`, `TMP`) set
 * to `tempDir`: Blender keeps a session folder there, which a killed Blender leaves behind, so the
 * node points it into its data folder and empties that folder when it starts.
 */
export function withTempDir(env: NodeJS.ProcessEnv, tempDir: string): NodeJS.ProcessEnv {
  return { ...env, TMPDIR: tempDir, TEMP: tempDir, TMP: tempDir };
}
