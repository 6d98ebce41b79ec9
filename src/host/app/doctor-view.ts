import type { DoctorReport } from '../../render-node/blender';
import type { DoctorView } from '../../shared/contract';

/** The doctor's report as the settings page shows it. */
export function toDoctorView(report: DoctorReport, now: Date): DoctorView {
  const info = report.found;
  return {
    ok: report.ok,
    blenderPath: info?.path ?? null,
    blenderVersion: info?.version ?? null,
    cyclesDevices: info?.cyclesDevices ?? [],
    denoisers: info ? [info.openImageDenoise ? 'OpenImageDenoise' : null, info.optix ? 'OptiX' : null].filter((d): d is string => d !== null) : [],
    viewTransforms: info?.viewTransforms ?? [],
    eevee: report.eevee === null ? 'not-checked' : report.eevee.usable ? 'usable' : 'not-usable',
    searched: report.searched,
    problems: report.problems,
    checkedAt: now.toISOString(),
  };
}
