import { Link } from 'react-router';

export function HomePage() {
  return (
    <section className="page hero">
      <h1 className="hero__title">Transform business communications into Insights</h1>
      <p className="hero__lead">
        Parlance transcribes your sales calls, support calls and meetings, scores each one against
        your team&apos;s criteria, and explains every verdict with evidence from the conversation.
      </p>
      <p>
        <Link to="/status">See the system status</Link>
      </p>
    </section>
  );
}
