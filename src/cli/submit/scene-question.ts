import { UsageError } from '../cli-errors';
import { type LiveDisplay, shellWord } from '../output';
import { type Choose, safeText } from '../terminal';

/** Where the question about a zip's scene is asked. */
export interface SceneQuestion {
  choose: Choose;
  /** A person can answer on this terminal. */
  canPrompt: boolean;
  signal: AbortSignal;
  /** Cleared while the question is asked. */
  display: Pick<LiveDisplay, 'suspend' | 'resume'>;
}

/**
 * Asks which scene of a zip that holds several to render. Without a terminal, or when the input ends
 * unanswered, nothing is asked and the file is refused (usage), naming the scenes and `advice` (how to
 * choose one without being asked).
 */
export async function askForScene(question: SceneQuestion, fileName: string, scenes: readonly string[], advice: string): Promise<string> {
  const listed = `${safeText(fileName)} holds several scenes: ${scenes.map((scene) => safeText(scene)).join(', ')}.`;
  if (!question.canPrompt) throw new UsageError(`${listed} There is no terminal to ask which one to render on. ${advice}`);
  question.display.suspend();
  try {
    const picked = await question.choose(`${listed} Which one should render?`, scenes, { signal: question.signal });
    if (picked === null) throw new UsageError(`No scene of ${safeText(fileName)} was chosen. ${advice}`);
    return picked;
  } finally {
    question.display.resume();
  }
}

/** `--scene` with the first of `scenes`, quoted for a shell when needed. */
export function sceneOptionExample(scenes: readonly string[]): string {
  return `--scene ${shellWord(scenes[0] ?? 'scene.blend')}`;
}
