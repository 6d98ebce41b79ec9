import { useState } from 'react';
import type { AppState, DoctorView } from '../../../shared/contract';
import { command } from '../../lib';
import { RenderWorkers } from './render-workers';
import { ThisComputerSettingsForm } from './this-computer-settings-form';

/** "This computer" in Settings: the Blender found, a check of what it can render, its render settings and workers. */
export function LocalProfileSettings(props: { state: AppState }) {
  const { blender } = props.state;
  const [doctor, setDoctor] = useState<DoctorView | null>(null);
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const check = async () => {
    setRunning(true);
    setError(null);
    const report = await command('app.runDoctor', {}, { what: 'check Blender', show: setError });
    setRunning(false);
    if (report) setDoctor(report);
  };
  return (
    <div className="card-body">
      {blender.found ? (
        <p>
          Blender {blender.version} at <code className="path">{blender.path}</code>
        </p>
      ) : (
        <p className="hint hint-error">{blender.hint}</p>
      )}
      <button type="button" onClick={() => void check()} disabled={running}>
        {running ? 'Checking Blender…' : 'Check Blender'}
      </button>
      {error && <p className="hint hint-error">{error}</p>}
      <ThisComputerSettingsForm state={props.state} />
      <RenderWorkers />
      {doctor && <DoctorReport doctor={doctor} />}
    </div>
  );
}

function DoctorReport(props: { doctor: DoctorView }) {
  const { doctor } = props;
  return (
    <section aria-label="Doctor report" className="doctor">
      <p>{doctor.ok ? 'This computer can render with Renderdrop.' : 'This computer cannot render yet.'}</p>
      {doctor.blenderVersion && (
        <dl className="facts">
          <dt>Blender</dt>
          <dd>
            {doctor.blenderVersion} <code className="path">{doctor.blenderPath}</code>
          </dd>
          <dt>Cycles devices</dt>
          <dd>{doctor.cyclesDevices.join(', ')}</dd>
          <dt>Denoisers</dt>
          <dd>{doctor.denoisers.join(', ') || 'none'}</dd>
          <dt>EEVEE</dt>
          <dd>{doctor.eevee === 'usable' ? 'usable' : doctor.eevee === 'not-usable' ? 'not usable here' : 'not checked'}</dd>
        </dl>
      )}
      {doctor.problems.length > 0 && (
        <ul className="warnings">
          {doctor.problems.map((p, i) => (
            <li key={i}>{p}</li>
          ))}
        </ul>
      )}
    </section>
  );
}
