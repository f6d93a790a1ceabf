import { useAppDispatch, useAppSelector } from '../app/hooks';
import { demoClosed, selectDemo } from '../lib/ui/demo-slice';
import { useWebConfig } from '../lib/web-config';
import { Modal } from './modal';

// The gateway's default, shown until its web config has arrived.
const DEFAULT_CONTACT_EMAIL = 'sales@parlance.local';

export const DEMO_FOOTER = 'Your information is secure and will only be used for scheduling purposes.';

/**
 * Spec part 1 §2: the demo modal frames the external scheduling page. A deployment without one
 * (DEMO_SCHEDULING_URL unset) offers its demo contact address instead of an empty frame.
 */
export function DemoModal() {
  const dispatch = useAppDispatch();
  const demo = useAppSelector(selectDemo);
  const config = useWebConfig();
  const contactEmail = config?.demoContactEmail ?? DEFAULT_CONTACT_EMAIL;
  return (
    <Modal open={demo.open} title={demo.title} onClose={() => dispatch(demoClosed())} size="wide" footer={<p className="demo-modal__footer">{DEMO_FOOTER}</p>}>
      {config?.demoSchedulingUrl ? (
        <iframe className="demo-modal__frame" title="Schedule a Demo" src={config.demoSchedulingUrl} />
      ) : (
        <div className="demo-modal__contact">
          <p>
            Tell us about your team and we will walk you through Parlance on your own calls: transcripts with speaker labels, scores against
            your criteria with the evidence behind each verdict, and the dashboards your managers will use.
          </p>
          <p>
            Write to{' '}
            <a href={`mailto:${contactEmail}?subject=${encodeURIComponent('Parlance demo')}`}>{contactEmail}</a>{' '}
            with a few times that suit you, and we will send an invitation within one working day.
          </p>
        </div>
      )}
    </Modal>
  );
}
