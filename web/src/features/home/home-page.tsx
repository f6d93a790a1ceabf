import { useRef, useState, type KeyboardEvent } from 'react';
import { useAppDispatch } from '../../app/hooks';
import { demoRequested, PRODUCT_DEMO_TITLE } from '../../lib/ui/demo-slice';
import { tabIndexAfterKey } from '../../lib/ui/tab-keys';
import './home.css';

/** Spec part 1 §2: the app passes a demo title that names the product. */
const SOURCES = [
  {
    title: 'Call recording',
    text: 'Sales and support calls are recorded or uploaded, with every speaker on the line captured.',
  },
  {
    title: 'Meeting recording',
    text: 'Video meetings join the same pipeline, so demos, interviews and reviews are covered too.',
  },
  {
    title: 'CRM sync',
    text: 'Deals, contacts and outcomes sync from your CRM, so every conversation sits next to its result.',
  },
  {
    title: 'Analysis platform',
    text: 'Everything lands in one place, organised by department and team, ready to be analysed.',
  },
] as const;

const OUTPUTS = [
  {
    title: 'Transcription',
    text: 'Accurate transcripts with speaker labels, so you can tell the rep from the customer at a glance.',
  },
  {
    title: 'Auto-score',
    text: 'Each conversation is scored against your weighted criteria, and every score quotes the evidence behind it.',
  },
  {
    title: 'Analytics dashboard',
    text: 'Trends by team, person and criterion show where performance moves and why.',
  },
  {
    title: 'Action plan',
    text: 'Concrete recommendations for each person, drawn from their own conversations.',
  },
] as const;

const RESULTS = [
  { figure: '100%', label: 'of conversations captured and assessed' },
  { figure: '100%', label: 'objective analysis' },
  { figure: '180+', label: 'minutes saved daily per employee' },
  { figure: '+40%', label: 'customer satisfaction' },
  { figure: '+30%', label: 'conversion rate' },
  { figure: '+20%', label: 'sales growth' },
] as const;

const AUDIENCES = [
  {
    tab: 'Leaders',
    heading: 'See the whole picture, not a sample',
    text: 'Parlance reviews every call and meeting, not the handful a manager has time for. Dashboards show how each department and team performs against the standards you set, which behaviours drive conversion and satisfaction, and where coaching will pay off first.',
    points: ['Performance by department, team and person', 'Trends you can trust, based on every conversation', 'Early warning when quality slips'],
  },
  {
    tab: 'HR',
    heading: 'Fair, consistent and evidence-based reviews',
    text: 'Interviews and internal meetings are transcribed and assessed against the same criteria every time. Each judgement links back to what was actually said, so reviews rest on evidence rather than memory, and development plans follow naturally.',
    points: ['The same criteria for every candidate and employee', 'Evidence quoted for every assessment', 'Personal development plans from real conversations'],
  },
  {
    tab: 'Sales',
    heading: 'Turn every call into coaching',
    text: 'Score discovery, objection handling and next steps on every call, then compare won and lost deals synced from your CRM. Reps get specific advice from their own calls, and managers see who needs help before the quarter is at risk.',
    points: ['Call scripts and compliance checked automatically', 'Won and lost deals compared side by side', 'Recommendations each rep can act on tomorrow'],
  },
  {
    tab: 'Support',
    heading: 'Quality assurance on every ticket call',
    text: 'Replace spot checks with complete coverage. Parlance scores empathy, resolution and policy compliance on each support conversation and highlights the calls that need a second look, so your QA team spends its time on coaching instead of listening.',
    points: ['Every support call scored, not a random few', 'Compliance gaps flagged with the exact quote', 'Less time listening, more time coaching'],
  },
] as const;

const BADGES = ['GDPR-ready', 'CCPA', 'HIPAA', 'SOC 2 Type II', 'ISO 27001'] as const;

function StepList({ steps, start }: { steps: readonly { title: string; text: string }[]; start: number }) {
  return (
    <ol className="home-steps" start={start}>
      {steps.map((step, index) => (
        <li key={step.title} className="home-steps__item card">
          <span className="home-steps__number" aria-hidden="true">
            {start + index}
          </span>
          <h3 className="home-steps__title">{step.title}</h3>
          <p className="home-steps__text">{step.text}</p>
        </li>
      ))}
    </ol>
  );
}

function AudienceTabs({ onDemo }: { onDemo: () => void }) {
  const [active, setActive] = useState(0);
  const tabs = useRef<(HTMLButtonElement | null)[]>([]);
  const audience = AUDIENCES[active] ?? AUDIENCES[0];

  // Arrow keys, Home and End move between tabs, as the ARIA tabs pattern describes.
  const onKeyDown = (event: KeyboardEvent) => {
    const next = tabIndexAfterKey(event.key, active, AUDIENCES.length);
    if (next === undefined) return;
    event.preventDefault();
    setActive(next);
    tabs.current[next]?.focus();
  };

  return (
    <>
      <div className="tabs home-audience__tabs" role="tablist" aria-label="Teams" onKeyDown={onKeyDown}>
        {AUDIENCES.map((item, index) => (
          <button
            key={item.tab}
            ref={(element) => {
              tabs.current[index] = element;
            }}
            type="button"
            role="tab"
            id={`home-tab-${index}`}
            aria-selected={index === active}
            aria-controls="home-tabpanel"
            tabIndex={index === active ? 0 : -1}
            className="tabs__tab"
            onClick={() => setActive(index)}
          >
            {item.tab}
          </button>
        ))}
      </div>
      <div className="home-audience__panel card" role="tabpanel" id="home-tabpanel" aria-labelledby={`home-tab-${active}`}>
        <h3>{audience.heading}</h3>
        <p>{audience.text}</p>
        <ul className="home-audience__points">
          {audience.points.map((point) => (
            <li key={point}>{point}</li>
          ))}
        </ul>
        <button type="button" className="button button--primary" onClick={onDemo}>
          See Demo for {audience.tab}
        </button>
      </div>
    </>
  );
}

export function HomePage() {
  const dispatch = useAppDispatch();
  const requestDemo = () => dispatch(demoRequested(PRODUCT_DEMO_TITLE));

  return (
    <div className="home">
      <section className="home-hero">
        <div className="home-hero__copy">
          <h1 className="home-hero__title">Transform business communications into Insights</h1>
          <p className="home-hero__lead">
            Parlance transcribes your sales calls, support calls and meetings, scores each one against your team&apos;s
            criteria, and explains every verdict with evidence from the conversation. Run it in our cloud or on your own
            servers.
          </p>
          <button type="button" className="button button--primary home-hero__cta" onClick={requestDemo}>
            Request a Demo
          </button>
        </div>
        <div className="home-video" role="img" aria-label="Demo video coming soon">
          <span className="home-video__play" aria-hidden="true" />
          <span className="home-video__label" aria-hidden="true">
            Demo video coming soon
          </span>
        </div>
      </section>

      <section className="home-section" aria-labelledby="home-how">
        <h2 id="home-how">How It Works</h2>
        <p className="home-section__lead">
          Four sources feed one analysis platform. Out come transcripts, scores, analytics and an action plan.
        </p>
        <StepList steps={SOURCES} start={1} />
        <p className="home-flow" aria-hidden="true">
          ↓
        </p>
        <StepList steps={OUTPUTS} start={5} />
      </section>

      <section className="home-section" aria-labelledby="home-results">
        <h2 id="home-results">Proven Results</h2>
        <ul className="home-results">
          {RESULTS.map((result) => (
            <li key={result.label} className="home-results__item card">
              <strong className="home-results__figure">{result.figure}</strong>
              <span className="home-results__label">{result.label}</span>
            </li>
          ))}
        </ul>
      </section>

      <section className="home-section home-audience" aria-labelledby="home-teams">
        <h2 id="home-teams">Built for Every Team</h2>
        <AudienceTabs onDemo={requestDemo} />
      </section>

      <section className="home-section home-trust" aria-labelledby="home-trust">
        <h2 id="home-trust">Privacy and Security</h2>
        <p className="home-section__lead">
          Conversation and CRM data are kept for up to 90 days by default, and when you run Parlance on your own
          servers they never leave your infrastructure.
        </p>
        <ul className="home-trust__badges" aria-label="Compliance">
          {BADGES.map((badge) => (
            <li key={badge} className="home-trust__badge">
              {badge}
            </li>
          ))}
        </ul>
      </section>

      <section className="home-closing" aria-labelledby="home-closing">
        <h2 id="home-closing">Hear what your conversations have been telling you</h2>
        <p>Book a short walkthrough and see how Parlance scores, explains and coaches on calls like yours.</p>
        <button type="button" className="button button--primary" onClick={requestDemo}>
          Schedule Demo
        </button>
      </section>
    </div>
  );
}
