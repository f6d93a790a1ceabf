import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { callAs, type Sessions } from '../../../plugins/sessions.js';
import { PlansResponse, SubscriptionResponse } from '../../../schemas/billing.schema.js';
import { SIGNED_IN } from '../../../schemas/security.schema.js';
import { ErrorResponse } from '../../../schemas/error.schema.js';
import type { ServiceClients } from '../../../service-clients.js';
import { allowanceView } from '../identity-views.js';

/** GET /api/billing/plans (public: the pricing page) and GET /api/billing/subscription. */
export async function billingRoutes(app: FastifyInstance, options: { services: ServiceClients; sessions: Sessions }): Promise<void> {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  const { billing } = options.services.identity;
  const tags = ['billing'];

  typed.get('/api/billing/plans', { schema: { operationId: 'listPlans', summary: 'The plans on offer', tags, response: { 200: PlansResponse } } }, async () => {
    const catalogue = await billing.listPlans({});
    return {
      success: true as const,
      plans: catalogue.plans.map((plan) => ({
        id: plan.id,
        name: plan.name,
        description: plan.description,
        price: plan.priceCents ?? null,
        contact_sales: plan.contactSales,
        billing_cycle: plan.billingCycle,
        annual_discount_percent: plan.annualDiscountPercent,
        popular: plan.popular,
        trial_days: plan.trialDays,
        type: plan.type,
        features: { insight_tokens_included: allowanceView(plan.insightTokensIncluded) },
      })),
      metadata: { overage_pricing: { insight_tokens_per_1000: catalogue.overageUsdPer1000InsightTokens } },
    };
  });

  typed.get(
    '/api/billing/subscription',
    {
      schema: {
        operationId: 'getSubscription',
        summary: 'The company’s plan and its insight-token usage in the current period',
        security: SIGNED_IN,
        tags,
        response: { 200: SubscriptionResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse },
      },
      preHandler: options.sessions.requireCaller,
    },
    async (request) => {
      const subscription = await billing.getSubscription({}, callAs(request));
      return {
        success: true as const,
        subscription: { price_amount_cents: subscription.priceAmountCents ?? null, billing_cycle: subscription.billingCycle },
        plan: { name: subscription.planName, features: { insight_tokens_included: allowanceView(subscription.insightTokensIncluded) } },
        usage: { total_insight_tokens: subscription.totalInsightTokens },
        period: { from: (subscription.periodFrom ?? new Date(0)).toISOString(), to: (subscription.periodTo ?? new Date(0)).toISOString() },
      };
    },
  );
}
