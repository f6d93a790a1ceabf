import { useId } from 'react';
import { TREND_TEXT, type KpiCard, type Trend } from './kpi';

const ARROWS: Record<Trend, string> = { up: '▲', down: '▼', flat: '▬' };

/** The four KPI cards; each trend is said in words for screen readers, not by colour alone. */
export function KpiCards({ cards, loading }: { cards: readonly KpiCard[]; loading: boolean }) {
  return (
    <div className="kpi-grid" aria-busy={loading}>
      {cards.map((card) => (
        <KpiCardView key={card.id} card={card} />
      ))}
    </div>
  );
}

function KpiCardView({ card }: { card: KpiCard }) {
  const labelId = useId();
  return (
    <article className="card kpi" aria-labelledby={labelId}>
      <h2 id={labelId} className="kpi__label">
        {card.label}
      </h2>
      <p className="kpi__value">{card.value}</p>
      {card.change === null ? (
        <p className="kpi__change kpi__change--none">No data</p>
      ) : (
        <p className={`kpi__change kpi__change--${card.trend}`}>
          <span aria-hidden="true" className="kpi__arrow">
            {ARROWS[card.trend]}
          </span>
          <span className="visually-hidden">{`${TREND_TEXT[card.trend]}: `}</span>
          <span>{card.change}</span>
        </p>
      )}
    </article>
  );
}
