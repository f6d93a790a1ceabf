import { useState } from 'react';
import { useAppDispatch } from '../../app/hooks';
import { demoRequested, PRODUCT_DEMO_TITLE } from '../../lib/ui/demo-slice';
import {
  calculateRoi,
  checkDraft,
  draftOf,
  formatCurrency,
  formatHours,
  formatPercent,
  ROI_DEFAULTS,
  type RoiDraft,
  type RoiField,
} from './roi';
import './calculator.css';

/** Spec part 1 §2: the app passes a demo title that names the product. */
type FieldSpec = { field: RoiField; label: string; hint: string; percent?: boolean };

const GROUPS: { legend: string; fields: FieldSpec[] }[] = [
  {
    legend: 'Call volume',
    fields: [
      { field: 'callsPerWeek', label: 'Calls per week', hint: 'All calls your team makes or takes in a week.' },
      { field: 'callsEvaluated', label: 'Calls evaluated per week', hint: 'Calls your QA team reviews by hand today.' },
      { field: 'successfulCallsReviewed', label: 'Successful calls reviewed per week', hint: 'Reviewed calls that ended in a sale or a resolution.' },
      { field: 'unsuccessfulCallsReviewed', label: 'Unsuccessful calls reviewed per week', hint: 'Reviewed calls that did not.' },
    ],
  },
  {
    legend: 'Revenue',
    fields: [
      { field: 'avgRevenuePerCall', label: 'Average revenue per call ($)', hint: 'What a successful call is worth on average.' },
      {
        field: 'potentialDecreasePercent',
        label: 'Potential decrease in unsuccessful calls (%)',
        hint: 'Share of unsuccessful calls that better coaching could turn around.',
        percent: true,
      },
    ],
  },
  {
    legend: 'Quality assurance',
    fields: [
      { field: 'avgQATimePerCall', label: 'Average QA time per call (minutes)', hint: 'Time a reviewer spends listening to and scoring one call.' },
      { field: 'qaLaborCostPerHour', label: 'QA labor cost per hour ($)', hint: 'Hourly cost of a reviewer, including overheads.' },
    ],
  },
];

export function CalculatorPage() {
  const dispatch = useAppDispatch();
  const [draft, setDraft] = useState<RoiDraft>(() => draftOf(ROI_DEFAULTS));
  const { values, errors } = checkDraft(draft);
  const results = calculateRoi(values);
  const incomplete = Object.keys(errors).length > 0;

  return (
    <div className="page calculator">
      <header className="calculator__header">
        <h1>ROI Calculator</h1>
        <p className="calculator__lead">
          Estimate what reviewing every conversation automatically could be worth to your team. Change any figure and
          the results update straight away.
        </p>
      </header>

      <div className="calculator__layout">
        <form className="calculator__form card" noValidate onSubmit={(event) => event.preventDefault()}>
          {GROUPS.map((group) => (
            <fieldset key={group.legend} className="calculator__group">
              <legend className="calculator__legend">{group.legend}</legend>
              {group.fields.map(({ field, label, hint, percent }) => {
                const error = errors[field];
                const id = `roi-${field}`;
                return (
                  <div key={field} className="field">
                    <label className="field__label" htmlFor={id}>
                      {label}
                    </label>
                    <input
                      id={id}
                      className="field__input calculator__input"
                      type="number"
                      inputMode="decimal"
                      min={0}
                      max={percent ? 100 : undefined}
                      step="any"
                      value={draft[field]}
                      aria-invalid={error ? true : undefined}
                      aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
                      onChange={(event) => setDraft((current) => ({ ...current, [field]: event.target.value }))}
                    />
                    <span className="field__hint" id={`${id}-hint`}>
                      {hint}
                    </span>
                    {error ? (
                      <span className="field__error" id={`${id}-error`}>
                        {error}
                      </span>
                    ) : null}
                  </div>
                );
              })}
            </fieldset>
          ))}
          <div className="button-row">
            <button type="button" className="button" onClick={() => setDraft(draftOf(ROI_DEFAULTS))}>
              Reset to defaults
            </button>
          </div>
        </form>

        <section className="calculator__results card" aria-labelledby="roi-results">
          <h2 id="roi-results">Your results</h2>
          <dl className="calculator__figures" aria-live="polite">
            <div className="calculator__figure">
              <dt>Calls not reviewed today</dt>
              <dd>{formatPercent(results.percentUnreviewed)}</dd>
            </div>
            <div className="calculator__figure">
              <dt>Potential revenue lost per week</dt>
              <dd>{formatCurrency(results.revenueLostPerWeek)}</dd>
            </div>
            <div className="calculator__figure">
              <dt>QA hours saved per week</dt>
              <dd>{formatHours(results.qaHoursSavedPerWeek)}</dd>
            </div>
            <div className="calculator__figure">
              <dt>QA cost saved per week</dt>
              <dd>{formatCurrency(results.qaCostSavedPerWeek)}</dd>
            </div>
            <div className="calculator__figure calculator__figure--total">
              <dt>Estimated annual savings</dt>
              <dd>{formatCurrency(results.annualSavings)}</dd>
            </div>
          </dl>
          {incomplete ? (
            <p className="calculator__incomplete" role="status">
              Correct the highlighted fields to see every result.
            </p>
          ) : null}
          <p className="calculator__cta-text">See these numbers on your own calls.</p>
          <button type="button" className="button button--primary" onClick={() => dispatch(demoRequested(PRODUCT_DEMO_TITLE))}>
            Request a Demo
          </button>
        </section>
      </div>

      <section className="calculator__method" aria-labelledby="roi-method">
        <h2 id="roi-method">How we calculate</h2>
        <ul>
          <li>
            <strong>Calls not reviewed</strong> = (calls per week − calls evaluated) ÷ calls per week × 100. Parlance
            scores all of them.
          </li>
          <li>
            <strong>Potential revenue lost per week</strong> = unsuccessful calls reviewed × average revenue per call ×
            potential decrease ÷ 100: the revenue you could win back by turning some unsuccessful calls around.
          </li>
          <li>
            <strong>QA hours saved per week</strong> = calls evaluated × average QA time per call ÷ 60, the listening
            and scoring time that automatic scoring takes over.
          </li>
          <li>
            <strong>QA cost saved per week</strong> = QA hours saved × QA labor cost per hour.
          </li>
          <li>
            <strong>Estimated annual savings</strong> = 52 × (potential revenue lost per week + QA cost saved per
            week).
          </li>
        </ul>
        <p className="calculator__disclaimer">
          These figures are estimates based on the numbers you enter, not a guarantee of results.
        </p>
      </section>
    </div>
  );
}
