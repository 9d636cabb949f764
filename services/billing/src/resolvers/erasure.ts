/**
 * Billing's part of account deletion and export: `closePaymentsForErasure` (compliance calls it before a
 * deletion answers) and `User.billingExport` (billing's part of the data export, the file's `billing`: the
 * subscription with its history of changes and the provider's customer, never card data — Haven stores none).
 */
import { dataExportPart, requireMayReadUser } from '@haven/platform';
import type { Model } from 'mongoose';
import { subscriptionStatusOf } from '../domain/access';
import type { BillingErasure } from '../events/erasure';
import type { Clock } from '../model/clock';
import type { CustomerRecord, SubscriptionRecord } from '../model/subscription';
import { subscriptionHistory } from '../model/subscription-history';
import type { Resolvers } from './types.generated';

const epochSeconds = (date: Date | null) => (date ? Math.floor(date.getTime() / 1000) : null);

export function erasureResolvers(deps: {
  subscriptions: Model<SubscriptionRecord>;
  customers: Model<CustomerRecord>;
  clock: Clock;
  erasure: BillingErasure;
}): Pick<Resolvers, 'Mutation' | 'User'> {
  return {
    Mutation: {
      closePaymentsForErasure: async (_parent, { userId }, context) => {
        await requireMayReadUser(context, userId);
        const closure = await deps.erasure.closePayments(userId);
        context.log.info({ cancelled: closure.cancelled, provider: closure.provider }, 'payments closed for deletion');
        return closure;
      },
    },
    User: {
      // Guarded like every User field (__resolveReference: the owner or an admin).
      billingExport: async ({ id }) => {
        const [subscription, customer, changes] = await Promise.all([
          deps.subscriptions.findById(id).lean<SubscriptionRecord>(),
          deps.customers.findById(id).lean<CustomerRecord>(),
          subscriptionHistory(deps.subscriptions.db).find({ userId: id }).sort({ revision: 1 }).toArray(),
        ]);
        const history = changes.map((change) => ({
          event: change.event,
          at: change.occurredAt.toISOString(),
          status: change.status,
          trialEnd: epochSeconds(change.trialEnd),
          currentPeriodEnd: epochSeconds(change.currentPeriodEnd),
          cancelAtPeriodEnd: change.cancelAtPeriodEnd,
        }));
        return dataExportPart({
          billing: {
            provider: subscription?.provider ?? customer?.provider ?? null,
            subscription: {
              ...subscriptionStatusOf(subscription, await deps.clock.now()),
              startedAt: subscription?.createdAt.toISOString() ?? null,
              trialUsed: subscription?.trialUsed ?? false,
              subscriptionId: subscription?.subscriptionId ?? null,
              paymentMethodId: subscription?.paymentMethodId ?? null,
              // After a failed payment: how many retries have failed, and when the next one is due.
              paymentRetries: subscription?.paymentRetries ?? 0,
              paymentRetryAt: subscription?.paymentRetryAt?.toISOString() ?? null,
              history,
            },
            customer: {
              customerId: customer?.customerId ?? subscription?.customerId ?? null,
              billingEmail: subscription?.email || customer?.email || null,
            },
            cardData: 'Haven stores no card details: your card is held by the payment provider.',
          },
        });
      },
    },
  };
}
