import type { SubmissionJournal, SubmissionRecord } from '../../core/journal';
import { recordForFile } from '../../core/lifecycle';
import type { RenderConfig } from '../../shared/api';
import { formatTimestamp } from '../output';
import { describeStep } from './describe-step';
import { askForScene, sceneOptionExample, type SceneQuestion } from './scene-question';

/** What `submit` records a file with, and how it asks. */
export interface PrepareOptions {
  journal: SubmissionJournal;
  baseUrl: string;
  profileId: string | null;
  renderConfig: RenderConfig;
  downloadRoot: string | null;
  /** `--scene`: the scene of a zip to render. */
  scenePath: string | null;
  yes: boolean;
  fresh: boolean;
  /** Pack a .blend with the files it uses (false: `--no-pack`, the .blend alone). */
  pack: boolean;
  /** `--allow-outside`: files held at the packing boundary that may travel, or folders holding them. */
  allowOutside: string[];
  /** The scene's project folder (`--project`, or remembered); null: the scene's folder. */
  project?: string | null;
  ask: (question: string) => Promise<boolean>;
  /** Where the question about a zip's scene goes. */
  sceneQuestion: SceneQuestion;
  note: (line: string) => void;
}

/**
 * The journal record to run for a file: after its checks, the unfinished submission of this very
 * file on this server when the person continues it (`--yes` does, `--new` does not), else a new one;
 * an unfinished submission not continued is set aside so `resume` leaves it alone. The scene of a zip
 * that holds several is `--scene`, else asked on the terminal; without a terminal the file is refused,
 * listing its scenes, before anything is sent.
 */
export async function prepareRecord(path: string, o: PrepareOptions): Promise<SubmissionRecord> {
  const where = (earlier: SubmissionRecord) => `${describeStep(earlier)}, submitted ${formatTimestamp(earlier.createdAt)}`;
  const { record, earlier } = await recordForFile(o.journal, {
    filePath: path,
    baseUrl: o.baseUrl,
    profileId: o.profileId,
    renderConfig: o.renderConfig,
    download: o.downloadRoot !== null ? { wanted: true, dir: null, root: o.downloadRoot } : { wanted: false, dir: null },
    pack: o.pack,
    allowOutside: o.allowOutside,
    ...(o.project ? { project: o.project } : {}),
    ...(o.scenePath !== null ? { scenePath: o.scenePath } : {}),
    chooseScene: (scenes, fileName) => askForScene(o.sceneQuestion, fileName, scenes, `Name the one to render with --scene, e.g. ${sceneOptionExample(scenes)}.`),
    continueEarlier: async (found) =>
      !o.fresh && (o.yes || (await o.ask(`${found.file.name} has an unfinished submission (${where(found)}). Continue it? (no starts a new one)`))),
  });
  if (earlier?.continued) o.note(`${record.file.name}: continuing the earlier submission (${where(earlier.record)})`);
  else if (earlier) o.note(`${record.file.name}: the earlier submission (${where(earlier.record)}) is set aside; starting a new one.`);
  return record;
}
