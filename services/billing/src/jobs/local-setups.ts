import type { Logger } from '@haven/platform';
import type { Model } from 'mongoose';
import type { CustomerRecord } from '../model/subscription';
import type { LocalProvider } from '../providers/local';
import type { CardChanger } from '../flows/card-change';
import type { SubscriptionStarter } from '../flows/subscription-start';

/**
 * The local provider's processing card setups that have settled, each starting its subscription as Stripe's
 * `setup_intent.succeeded` webhook does: once per setup intent (the starter's claim), whether or not the page
 * is still open; a card change's setup makes its card the subscription's instead. A setup whose start fails is logged and left for the browser's own call, which starts it from
 * the succeeded setup; the others go on. Answers how many started.
 */
export function localSetupSettler(deps: {
  local: LocalProvider;
  customers: Model<CustomerRecord>;
  starter: SubscriptionStarter;
  cardChanger: CardChanger;
  log: Logger;
}): (now: Date) => Promise<number> {
  const correlationId = 'billing-local-setups';
  return async (now) => {
    let started = 0;
    for (const settled of await deps.local.settleProcessingSetups(now)) {
      try {
        const customer = await deps.customers.findOne({ setupIntentId: settled.setupIntentId }).lean();
        if (!customer || !settled.paymentMethodId) continue;
        // A card change's setup starts nothing: its card becomes the subscription's, page open or not.
        if (customer.setupPurpose === 'change_card') {
          await deps.cardChanger.applyAfterSetup({
            userId: customer._id,
            setupIntentId: settled.setupIntentId,
            paymentMethodId: settled.paymentMethodId,
            correlationId,
          });
          continue;
        }
        await deps.starter.startAfterSetup({
          userId: customer._id,
          setupIntentId: settled.setupIntentId,
          paymentMethodId: settled.paymentMethodId,
          correlationId,
        });
        started++;
      } catch (error) {
        deps.log.error({ err: error, setupIntentId: settled.setupIntentId }, 'a settled card setup did not start');
      }
    }
    return started;
  };
}
