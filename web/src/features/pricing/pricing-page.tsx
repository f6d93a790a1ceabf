import { Link } from 'react-router';
import { useAppDispatch } from '../../app/hooks';
import { Spinner } from '../../components/spinner';
import { useListPlansQuery, type ListPlansApiResponse } from '../../lib/api/gateway-api.generated';
import { demoRequested, PRODUCT_DEMO_TITLE } from '../../lib/ui/demo-slice';
import { annualDiscount, callTimeEstimate, overagePrice, planPrice, tokenAllowance, trialLength } from './plan-display';
import './pricing.css';

/** Spec part 1 §2: the app passes a demo title that names the product. */
type Plan = ListPlansApiResponse['plans'][number];

const INCLUDED = [
  'Transcription of calls and meetings with speaker identification',
  'Automatic scoring against your own weighted criteria, with evidence for every score',
  'Call script and compliance checks',
  'Analytics dashboard by department, team and person',
  'Personal action plans and improvement recommendations',
  'CRM sync of deals, contacts and outcomes',
  'Admin and Manager roles for your staff',
  'Cloud hosting or self-hosting on your own servers',
] as const;

function PlanCard({ plan, overageUsd, onContactSales }: { plan: Plan; overageUsd: number | undefined; onContactSales: () => void }) {
  const price = planPrice(plan.price, plan.billing_cycle);
  const contactSales = price.kind === 'custom' || plan.contact_sales;
  const trial = trialLength(plan.type, plan.trial_days);
  const discount = annualDiscount(plan.annual_discount_percent);
  const tokens = plan.features.insight_tokens_included;
  // Overage is charged on metered paid plans; a trial simply ends and unlimited has no ceiling.
  const showOverage = overageUsd !== undefined && tokens !== 'unlimited' && plan.type !== 'trial';
  const headingId = `plan-${plan.id}`;

  return (
    <article className={`pricing-plan card${plan.popular ? ' pricing-plan--popular' : ''}`} aria-labelledby={headingId}>
      {plan.popular ? <span className="badge badge--primary pricing-plan__badge">Most Popular</span> : null}
      <h2 id={headingId} className="pricing-plan__name">
        {plan.name}
      </h2>
      <p className="pricing-plan__description">{plan.description}</p>
      <p className="pricing-plan__price">
        <span className="pricing-plan__amount">{price.amount}</span>
        {price.kind === 'paid' ? <span className="pricing-plan__period"> {price.period}</span> : null}
      </p>
      {trial || discount ? (
        <p className="pricing-plan__offers">
          {trial ? <span className="badge badge--success">{trial}</span> : null}
          {discount ? <span className="badge badge--info">{discount}</span> : null}
        </p>
      ) : null}
      <ul className="pricing-plan__facts">
        <li>
          <strong>{tokenAllowance(tokens)}</strong>
          <span className="pricing-plan__estimate">{callTimeEstimate(tokens)}</span>
        </li>
        {showOverage ? <li>{overagePrice(overageUsd)}</li> : null}
      </ul>
      <div className="pricing-plan__action">
        {contactSales ? (
          <button type="button" className="button button--primary" onClick={onContactSales}>
            Contact Sales
          </button>
        ) : (
          <Link to="/login" className={`button${plan.popular ? ' button--primary' : ''} pricing-plan__link`}>
            {trial ? 'Start Free Trial' : 'Get Started'}
          </Link>
        )}
      </div>
    </article>
  );
}

export function PricingPage() {
  const dispatch = useAppDispatch();
  const { data, isLoading, isError } = useListPlansQuery();
  const requestDemo = () => dispatch(demoRequested(PRODUCT_DEMO_TITLE));
  // Spec part 1 §8: a reply with success false is a failure too.
  const failed = isError || (data !== undefined && (data.success !== true || !Array.isArray(data.plans)));

  return (
    <div className="page pricing">
      <header className="pricing__header">
        <h1>Pricing</h1>
        <p className="pricing__lead">
          Every plan analyses every conversation. Choose the allowance that fits your call volume, start with a free
          trial, and move up as your teams grow.
        </p>
      </header>

      {isLoading ? (
        <p className="pricing__loading">
          <Spinner label="Loading pricing plans" /> Loading pricing plans…
        </p>
      ) : failed ? (
        <p className="alert" role="alert">
          Failed to load pricing plans
        </p>
      ) : data ? (
        <div className="pricing__plans">
          {data.plans.map((plan) => (
            <PlanCard
              key={plan.id}
              plan={plan}
              overageUsd={data.metadata?.overage_pricing?.insight_tokens_per_1000}
              onContactSales={requestDemo}
            />
          ))}
        </div>
      ) : null}

      <section className="pricing__included card" aria-labelledby="pricing-included">
        <h2 id="pricing-included">All Plans Include</h2>
        <ul className="pricing__included-list">
          {INCLUDED.map((item) => (
            <li key={item}>{item}</li>
          ))}
        </ul>
        <p className="pricing__note">
          One hour of calls uses about 400,000 insight tokens, so an allowance of 1,000,000 tokens covers roughly 2.5
          hours of conversation.
        </p>
      </section>

      <section className="pricing__demo" aria-labelledby="pricing-demo">
        <h2 id="pricing-demo">Not sure which plan fits?</h2>
        <p>Show us how your teams work and we will help you size the right plan, or walk you through self-hosting.</p>
        <button type="button" className="button button--primary" onClick={requestDemo}>
          Request a Demo
        </button>
      </section>
    </div>
  );
}
