import { compareSettings, type JobDetail } from '../../../shared/contract';

/** Requested against used render settings, in words, each change with the farm's reason. */
export function DetailSettings(props: { detail: JobDetail }) {
  const rows = compareSettings(props.detail.requestedConfig, props.detail.finalConfig);
  if (rows.length === 0) return null;
  const changes = rows.filter((r) => r.changed).length;
  return (
    <section aria-label="Requested and final settings">
      <h3>Settings</h3>
      <p className="muted">{changes === 0 ? 'Nothing changed from what you asked.' : `The farm changed ${changes === 1 ? 'one setting' : `${changes} settings`}; the reason is beside each change.`}</p>
      <table className="config">
        <thead>
          <tr>
            <th scope="col">Setting</th>
            <th scope="col">Requested</th>
            <th scope="col">Used</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.field} className={r.changed ? 'changed' : undefined}>
              <th scope="row">
                {r.label}
                {r.changed && <span className="visually-hidden"> (changed)</span>}
              </th>
              <td>{r.requested}</td>
              <td>
                {r.used}
                {r.reason && <div className="reason">{r.reason}</div>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
