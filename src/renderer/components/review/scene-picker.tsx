import { useState } from 'react';
import type { SubmissionView } from '../../../shared/contract';
import { command } from '../../lib';

/**
 * Which scene of a zip that holds several to render: one button per scene, asked while the zip uploads
 * and after it (the submission waits for the answer). Discarding is offered once it waits.
 */
export function ScenePicker(props: { submission: SubmissionView; scenes: string[] }) {
  const { submission: s, scenes } = props;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const headingId = `scene-choice-${s.id}`;
  const choose = async (scenePath: string) => {
    setBusy(true);
    setError(null);
    await command('submissions.chooseScene', { submissionId: s.id, scenePath }, { what: `render ${scenePath}`, show: setError });
    setBusy(false);
  };
  return (
    <div className="scene-choice" role="group" aria-labelledby={headingId}>
      <p className="hint" id={headingId}>
        This zip holds {scenes.length} scenes. Which one should render?
      </p>
      <div className="scene-choice-buttons">
        {scenes.map((scene) => (
          <button type="button" key={scene} onClick={() => void choose(scene)} disabled={busy}>
            {scene}
          </button>
        ))}
      </div>
      {error && (
        <p className="hint hint-error" role="alert">
          {error}
        </p>
      )}
      {s.phase === 'choose-scene' && (
        <div className="actions">
          <button type="button" onClick={() => void command('submissions.discard', { submissionId: s.id }, { what: `discard ${s.fileName}` })} disabled={busy}>
            Discard
          </button>
        </div>
      )}
    </div>
  );
}
