/** Pricing plans and the subscription, in the spec's wire shapes (part 1, §3). */
import Type from 'typebox';

const Allowance = Type.Union([Type.Integer({ minimum: 0 }), Type.Literal('unlimited')], {
  description: 'insight tokens included per billing period, or unlimited',
});

export const PlanView = Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: Type.String(),
  price: Type.Union([Type.Integer(), Type.Null()], { description: 'cents per billing cycle; null means contact sales, 0 means free' }),
  contact_sales: Type.Boolean(),
  billing_cycle: Type.String(),
  annual_discount_percent: Type.Integer(),
  popular: Type.Boolean(),
  trial_days: Type.Integer(),
  type: Type.String({ description: "'trial', 'paid' or 'custom'" }),
  features: Type.Object({ insight_tokens_included: Allowance }),
});

export const PlansResponse = Type.Object({
  success: Type.Literal(true),
  plans: Type.Array(PlanView),
  metadata: Type.Object({
    overage_pricing: Type.Object({ insight_tokens_per_1000: Type.Number({ description: 'US dollars per 1,000 insight tokens beyond the allowance' }) }),
  }),
});

export const SubscriptionResponse = Type.Object({
  success: Type.Literal(true),
  subscription: Type.Object({
    price_amount_cents: Type.Union([Type.Integer(), Type.Null()], { description: 'null means contact sales' }),
    billing_cycle: Type.String(),
  }),
  plan: Type.Object({ name: Type.String(), features: Type.Object({ insight_tokens_included: Allowance }) }),
  usage: Type.Object({ total_insight_tokens: Type.Integer({ minimum: 0, description: 'insight tokens consumed in the current period' }) }),
  period: Type.Object({ from: Type.String({ format: 'date-time' }), to: Type.String({ format: 'date-time' }) }),
});
