/** "Job 1f2e… failed: SceneUnreadable (scene): " as the lifecycle records it (the CLI prints it whole). */
const LEAD = /^Job [0-9A-Za-z-]+ failed: [A-Za-z]+ \([A-Za-z-]+\)(?::\s*|\.?$)/;

/**
 * A failed job's message in the artist's words: without the job's id and the farm's code, which the
 * journal keeps for the CLI. A message without that lead is left as it is.
 */
export function jobFailedWords(message: string): string {
  if (!LEAD.test(message)) return message;
  const rest = message.replace(LEAD, '').trim();
  return rest === '' ? 'The farm could not use the scene and gave no reason.' : rest;
}
