import { useGetSubscriptionQuery } from '../../lib/api/gateway-api.generated';
import { Spinner } from '../../components/spinner';
import { formatCount } from '../../lib/format';
import {
  OVERAGE_PRICE_TEXT,
  USAGE_STATUS_BADGES,
  USAGE_STATUS_LABELS,
  allowanceText,
  billingCycleText,
  periodDateText,
  priceText,
  usagePercent,
  usageStatus,
} from './settings-rules';

export const SUBSCRIPTION_LOAD_FAILED = 'Failed to load subscription data';

/** Billing and Usage (spec §2, §3, §8, §9): the plan and this period's insight-token usage. */
export function BillingPanel() {
  const { data, isLoading, isError, refetch } = useGetSubscriptionQuery();

  let body;
  if (isLoading) {
    body = (
      <p>
        <Spinner label="Loading subscription" />
      </p>
    );
  } else if (isError || !data) {
    body = (
      <div className="alert settings-failure" role="alert">
        <span>{SUBSCRIPTION_LOAD_FAILED}</span>
        <button type="button" className="button button--small" onClick={() => void refetch()}>
          Try again
        </button>
      </div>
    );
  } else {
    const used = data.usage.total_insight_tokens;
    const included = data.plan.features.insight_tokens_included;
    const percent = usagePercent(used, included);
    const status = usageStatus(used, included);
    body = (
      <>
        <div className="card">
          <div className="settings-plan__header">
            <h3 className="settings-plan__name">{data.plan.name}</h3>
            <span className={USAGE_STATUS_BADGES[status]} data-status={status}>
              {USAGE_STATUS_LABELS[status]}
            </span>
          </div>
          <dl className="facts settings-facts">
            <dt>Billing cycle</dt>
            <dd>{billingCycleText(data.subscription.billing_cycle)}</dd>
            <dt>Price</dt>
            <dd>{priceText(data.subscription.price_amount_cents)}</dd>
            <dt>Current period</dt>
            <dd>
              {periodDateText(data.period.from)} – {periodDateText(data.period.to)}
            </dd>
            <dt>Overage</dt>
            <dd>{OVERAGE_PRICE_TEXT}</dd>
          </dl>
        </div>
        <div className="card settings-usage">
          <h3>Insight tokens</h3>
          <p className="settings-usage__figures">
            {formatCount(used)} of {allowanceText(included)} insight tokens used
          </p>
          {percent === null ? (
            <p className="settings-muted">Your plan includes unlimited insight tokens.</p>
          ) : (
            <div
              className={`settings-usage__bar settings-usage__bar--${status}`}
              role="progressbar"
              aria-label="Insight tokens used"
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={percent}
              aria-valuetext={`${percent}% of included insight tokens used`}
            >
              <span className="settings-usage__fill" style={{ width: `${percent}%` }} />
            </div>
          )}
          {percent === null ? null : <p className="settings-usage__percent">{percent}% used</p>}
          {status === 'over-limit' && typeof included === 'number' ? (
            <p className="settings-usage__over">
              {formatCount(used - included)} insight tokens over the allowance, priced at {OVERAGE_PRICE_TEXT}.
            </p>
          ) : null}
        </div>
      </>
    );
  }

  return (
    <section className="settings-section" aria-labelledby="settings-billing-title">
      <h2 id="settings-billing-title">Billing and Usage</h2>
      {body}
    </section>
  );
}
