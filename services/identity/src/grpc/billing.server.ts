/** parlance.identity.v1.BillingService: the plan catalogue and the caller's subscription and usage. */
import type { Database } from '@parlance/platform/db/database';
import type { ServiceImplementation } from '@parlance/platform/grpc/grpc-server';
import { notFound } from '@parlance/platform/errors';
import type { BillingServiceService} from '@parlance/proto/parlance/identity/v1/billing';
import { type Plan as PlanMessage, type TokenAllowance } from '@parlance/proto/parlance/identity/v1/billing';
import { findSubscription, usageBetween } from '../db/billing.repository.js';
import { currentPeriod, findPlan, subscriptionPriceCents, type Plan, type PlanCatalogue } from '../domain/plans.js';
import { callerMembership } from '../membership.js';

export interface BillingDependencies {
  db: Database<Record<string, unknown>>;
  plans: PlanCatalogue;
  now?: () => Date;
}

function allowance(plan: Plan): TokenAllowance {
  const included = plan.features.insight_tokens_included;
  return { allowance: included === 'unlimited' ? { $case: 'unlimited', value: true } : { $case: 'tokens', value: included } };
}

function planMessage(plan: Plan): PlanMessage {
  return {
    id: plan.id,
    name: plan.name,
    description: plan.description,
    ...(plan.price === null ? {} : { priceCents: plan.price }),
    contactSales: plan.contact_sales,
    billingCycle: plan.billing_cycle,
    annualDiscountPercent: plan.annual_discount_percent,
    popular: plan.popular,
    trialDays: plan.trial_days,
    type: plan.type,
    insightTokensIncluded: allowance(plan),
  };
}

export function billingService(deps: BillingDependencies): ServiceImplementation<typeof BillingServiceService> {
  const { db, plans } = deps;
  const now = deps.now ?? (() => new Date());
  return {
    async listPlans() {
      return { plans: plans.plans.map(planMessage), overageUsdPer1000InsightTokens: plans.metadata.overage_pricing.insight_tokens_per_1000 };
    },

    async getSubscription() {
      const { company } = await callerMembership(db);
      const subscription = await findSubscription(db, company.id);
      if (!subscription) throw notFound('Your company has no subscription yet.');
      const plan = findPlan(plans, subscription.planId);
      const period = currentPeriod(subscription, plan, now());
      const price = subscriptionPriceCents(plan, subscription.billingCycle);
      return {
        planId: plan.id,
        planName: plan.name,
        ...(price === null ? {} : { priceAmountCents: price }),
        billingCycle: subscription.billingCycle,
        insightTokensIncluded: allowance(plan),
        totalInsightTokens: await usageBetween(db, company.id, period.from, period.to),
        periodFrom: period.from,
        periodTo: period.to,
      };
    },
  };
}
