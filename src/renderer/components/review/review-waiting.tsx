import type { SubmissionView } from '../../../shared/contract';
import type { ReviewEntry } from '../../lib';
import { MissingFilesChoice } from './packing-summary';
import { ScenePicker } from './scene-picker';

const ON_ITS_WAY: Partial<Record<SubmissionView['phase'], string>> = {
  packing: 'Packing the scene with the files it uses…',
  uploading: 'Uploading…',
  validating: 'The farm is reading the scene…',
  starting: 'Render started.',
  rendering: 'Render started.',
  downloading: 'Rendered; downloading the frames.',
  done: 'Rendered and downloaded.',
  canceled: 'Canceled.',
  discarded: 'Discarded: it will not be rendered.',
};

/** A scene of the review that is not waiting at review: on its way there, refused, or already started. */
export function SceneOnItsWay(props: { entry: ReviewEntry }) {
  const { entry } = props;
  const s = entry.submission;
  if (entry.refused !== null) {
    return (
      <p className="hint hint-error" role="alert">
        Not sent: {entry.refused}
      </p>
    );
  }
  if (!s) return <p role="status">Handing {entry.name} to Renderdrop…</p>;
  if (s.phase === 'missing-files') return <MissingFilesChoice submission={s} />;
  if (s.phase === 'choose-scene' || (s.scenes && s.phase === 'uploading')) return s.scenes ? <ScenePicker submission={s} scenes={s.scenes} /> : null;
  if (s.phase === 'failed') {
    return (
      <p className="hint hint-error" role="alert">
        Stopped: {s.error?.message ?? 'it could not be sent.'}
      </p>
    );
  }
  return <p role="status">{ON_ITS_WAY[s.phase] ?? 'On its way…'}</p>;
}
