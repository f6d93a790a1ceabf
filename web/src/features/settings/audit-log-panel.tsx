import { useAppDispatch } from '../../app/hooks';
import { demoRequested, PRODUCT_DEMO_TITLE } from '../../lib/ui/demo-slice';

// Made-up rows that show what the Audit Log records; clearly labelled as a sample below.
const SAMPLE_EVENTS = [
  {
    when: 'Mar 3, 2025 09:14',
    who: 'jane.doe@example.com',
    action: 'Changed role of sam.lee@example.com to Admin',
  },
  {
    when: 'Mar 2, 2025 16:40',
    who: 'sam.lee@example.com',
    action: 'Updated team "Inbound Sales"',
  },
  {
    when: 'Mar 2, 2025 11:05',
    who: 'jane.doe@example.com',
    action: 'Invited alex.kim@example.com as Manager',
  },
  {
    when: 'Mar 1, 2025 08:52',
    who: 'alex.kim@example.com',
    action: 'Signed in',
  },
];

/**
 * Audit Log (spec §2, §6): Enterprise plans only. Everyone else sees what it would record, as
 * a disabled sample, and a way to ask for Enterprise (the demo modal).
 */
export function AuditLogPanel() {
  const dispatch = useAppDispatch();
  return (
    <section className="settings-section" aria-labelledby="settings-audit-title">
      <h2 id="settings-audit-title">Audit Log</h2>
      <div className="alert alert--warning settings-upgrade">
        <p>The Audit Log is available on Enterprise plans only. It records who changed what in your company, and when.</p>
        <button type="button" className="button button--primary" onClick={() => dispatch(demoRequested(PRODUCT_DEMO_TITLE))}>
          Upgrade to Enterprise
        </button>
      </div>
      <div className="settings-sample" aria-disabled="true">
        <p className="settings-sample__label" id="settings-audit-sample">
          Sample data: these events are examples, not your company's activity.
        </p>
        <div className="settings-table-wrap">
          <table className="table settings-sample__table" aria-describedby="settings-audit-sample">
            <caption className="visually-hidden">Sample audit log (example data, disabled)</caption>
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">User</th>
                <th scope="col">Action</th>
              </tr>
            </thead>
            <tbody>
              {SAMPLE_EVENTS.map((event) => (
                <tr key={event.when}>
                  <td>{event.when}</td>
                  <td>{event.who}</td>
                  <td>{event.action}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </div>
    </section>
  );
}
