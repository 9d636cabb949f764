import {
  badInput,
  conflict,
  mayReadUser,
  notFound,
  requestLoader,
  requireSession,
  type RequestContext,
} from '@haven/platform';
import { GraphQLError } from 'graphql';
import type { Model } from 'mongoose';
import { subscriptionStatusOf } from '../domain/access';
import { accessAfter, openAtProvider, startRefusal, type StartRefusal } from '../domain/lifecycle';
import { billingMessages } from '../domain/messages';
import { subscriptionOfferAt } from '../domain/offer';
import { clientSecretProblem, type PaymentProvider, type SetupPurpose } from '../domain/provider';
import { normaliseCardNumber } from '../domain/test-cards';
import { changeSubscription } from '../flows/subscription-changes';
import type { Scheduler } from '../jobs/scheduler';
import type { SubscriptionStarter } from '../flows/subscription-start';
import type { Clock } from '../model/clock';
import { findSubscriptionsByUserIds, type CustomerRecord, type SubscriptionRecord } from '../model/subscription';
import type { LocalProvider, LocalSetupAnswer } from '../providers/local';
import type { TrialClaims } from '../model/trial-claim';
import type { BillingErasure } from '../events/erasure';
import type { CardChanger } from '../flows/card-change';
import { erasureResolvers } from './erasure';
import type { Resolvers } from './types.generated';

export interface BillingResolverDeps {
  subscriptions: Model<SubscriptionRecord>;
  customers: Model<CustomerRecord>;
  provider: PaymentProvider;
  /** Present when the provider is the local test-mode one. */
  localProvider: LocalProvider | null;
  /** The addresses that have had their free trial (kept across a deleted account). */
  trials: TrialClaims;
  clock: Clock;
  scheduler: Scheduler;
  publishSoon: () => void;
  /** The caller's address and first name, from the user service (for the provider's customer and e-mails). */
  profileOf: (sessionToken: string) => Promise<{ email: string; firstName: string }>;
  publishableKey: string | null;
  testClock: boolean;
  /** Starts a subscription from a succeeded setup, once (flows/subscription-start.ts). */
  starter: SubscriptionStarter;
  /** Account deletion (events/erasure.ts). */
  erasure: BillingErasure;
  /** Makes a confirmed new card the subscription's, once (flows/card-change.ts). */
  cardChanger: CardChanger;
}

/** How many past invoices Settings lists: two years of monthly ones. */
const invoiceLimit = 24;

/** The most users one entitlementRecords call may name. */
const entitlementRecordsMax = 500;

export function billingResolvers(deps: BillingResolverDeps): Resolvers {
  const { subscriptions, customers, provider, clock } = deps;
  const erasure = erasureResolvers(deps);

  const statusNow = async (userId: string) =>
    subscriptionStatusOf(await subscriptions.findById(userId).lean<SubscriptionRecord>(), await clock.now());

  /**
   * As Stripe's webhook does: the subscription starts when the card is confirmed, tab open or not. A change-card
   * setup starts nothing; confirmed after the bank's check (the page is away on the bank's), its card becomes the
   * subscription's here, and updatePaymentMethodAfterSetup answers that same change.
   */
  const startAfterLocalSetup = async (
    userId: string,
    customer: CustomerRecord | null,
    result: LocalSetupAnswer,
    correlationId: string,
    afterBankCheck = false,
  ) => {
    if (!(result.status === 'succeeded' && result.paymentMethodId && customer?.setupIntentId === result.setupIntentId))
      return;
    if (customer.setupPurpose === 'change_card') {
      if (afterBankCheck) {
        await deps.cardChanger.applyAfterSetup({
          userId,
          setupIntentId: result.setupIntentId,
          paymentMethodId: result.paymentMethodId,
          correlationId,
        });
      }
    } else {
      await deps.starter.startAfterSetup({
        userId,
        setupIntentId: result.setupIntentId,
        paymentMethodId: result.paymentMethodId,
        correlationId,
      });
    }
  };

  /**
   * Whether a subscription started now comes with the free trial: once per account and once per address, so
   * deleting an account and registering the address again does not bring a second one.
   */
  const trialAvailable = async (existing: SubscriptionRecord | null, email: string | null) =>
    !existing?.trialUsed && !(email && (await deps.trials.claimed(email)));

  /** The same rule for a user by id: the address billing knows from the payment setup, else the user service's. */
  const trialAvailableFor = async (id: string, context: RequestContext) => {
    const existing = await subscriptions.findById(id).lean<SubscriptionRecord>();
    if (existing?.trialUsed) return false;
    const known = (await customers.findById(id, { email: 1 }).lean())?.email;
    // Only the caller's own session may ask the user service for the address.
    const email =
      known ||
      (context.session?.userId === id && context.sessionToken
        ? (await deps.profileOf(context.sessionToken)).email
        : null);
    return trialAvailable(existing, email);
  };

  /** What the person is told about the subscription their setup started. */
  const answerStarted = async (started: SubscriptionRecord) => {
    const message =
      started.status === 'trialing'
        ? billingMessages.trialStarted(started.trialEnd)
        : started.status === 'active'
          ? billingMessages.activated(started.currentPeriodEnd)
          : billingMessages.paymentFailed;
    return { message, subscriptionStatus: await statusNow(started._id) };
  };

  /** Why no new subscription starts: one is running, or one waits for a failed payment (its card is changed instead). */
  const refusedStart = (refusal: StartRefusal) =>
    conflict(refusal === 'payment_failed' ? billingMessages.updateCardInstead : billingMessages.alreadySubscribed);

  /** A change that lost a race to another request or the scheduler: the caller tries again. */
  const ensureApplied = (applied: boolean) => {
    if (!applied) throw conflict(billingMessages.changedMeanwhile);
  };

  return {
    Query: {
      paymentConfig: () => ({ provider: provider.name, publishableKey: deps.publishableKey }),
      // Haven's services only (@internal): the copies' reconciliation, which runs on no one's behalf.
      entitlementRecords: async (_parent, { userIds }) => {
        if (userIds.length > entitlementRecordsMax)
          throw badInput('userIds', `Ask for at most ${entitlementRecordsMax} users at a time`);
        const now = await clock.now();
        const found = await subscriptions.find({ _id: { $in: [...new Set(userIds)] } }).lean<SubscriptionRecord[]>();
        const seconds = (date: Date | null | undefined) => (date ? date.getTime() / 1000 : null);
        return found.map((subscription) => {
          const access = accessAfter(subscription, now);
          return {
            userId: subscription._id,
            revision: subscription.revision,
            status: access.status,
            granted: access.granted,
            reason: access.reason,
            validUntil: seconds(access.validUntil),
            trialEnd: seconds(subscription.trialEnd),
            asOf: seconds(now)!,
          };
        });
      },
    },
    Mutation: {
      ...erasure.Mutation,
      createSetupIntent: async (_parent, { purpose }, context) => {
        const session = requireSession(context);
        const setupPurpose: SetupPurpose = purpose === 'CHANGE_CARD' ? 'change_card' : 'start';
        const existing = await subscriptions.findById(session.userId).lean<SubscriptionRecord>();
        // Before anything is stored or asked of the provider.
        const refusal = setupPurpose === 'start' ? startRefusal(existing, await clock.now()) : null;
        if (refusal) throw refusedStart(refusal);
        // A new card belongs to the customer the running subscription charges.
        if (setupPurpose === 'change_card' && !(existing && openAtProvider(existing)))
          throw notFound(billingMessages.noCardToChange);
        const profile = await deps.profileOf(context.sessionToken!);
        const customerId =
          setupPurpose === 'change_card'
            ? existing!.customerId
            : await provider.ensureCustomer({
                userId: session.userId,
                email: profile.email,
                idempotencyKey: `customer-${session.userId}`,
              });
        const customer = await customers.findOneAndUpdate(
          { _id: session.userId },
          {
            $set: { provider: provider.name, customerId, email: profile.email, firstName: profile.firstName },
            $setOnInsert: { setupAttempts: 0, setupIntentId: null, setupPurpose: 'start' },
          },
          { upsert: true, new: true },
        );
        // The key comes from what is stored: a retry after a crash reuses the provider's intent.
        const intent = await provider.createSetupIntent({
          customerId,
          userId: session.userId,
          purpose: setupPurpose,
          idempotencyKey: `setup-${session.userId}-${customer.setupAttempts}`,
        });
        await customers.updateOne(
          { _id: session.userId },
          { $set: { setupIntentId: intent.setupIntentId, setupPurpose }, $inc: { setupAttempts: 1 } },
        );
        return { clientSecret: intent.clientSecret };
      },

      confirmLocalSetup: async (_parent, { input: { clientSecret, cardNumber } }, context) => {
        const session = requireSession(context);
        if (!deps.localProvider) throw badInput('cardNumber', billingMessages.testModeOnly);
        const digits = normaliseCardNumber(cardNumber);
        if (!digits) throw badInput('cardNumber', billingMessages.cardNumberInvalid);
        const secretProblem = clientSecretProblem(clientSecret);
        if (secretProblem) throw badInput('clientSecret', secretProblem);
        const customer = await customers.findById(session.userId).lean();
        const result = customer
          ? await deps.localProvider.confirmSetup(clientSecret, customer.customerId, digits, await clock.now())
          : null;
        if (!result) throw notFound(billingMessages.noSuchSetup);
        await startAfterLocalSetup(session.userId, customer, result, context.correlationId);
        return { status: result.status, message: result.message, challengeUrl: result.challengeUrl };
      },

      authenticateLocalSetup: async (_parent, { input: { clientSecret, approve } }, context) => {
        const session = requireSession(context);
        if (!deps.localProvider) throw badInput('clientSecret', billingMessages.testModeOnly);
        const secretProblem = clientSecretProblem(clientSecret);
        if (secretProblem) throw badInput('clientSecret', secretProblem);
        const customer = await customers.findById(session.userId).lean();
        const result = customer
          ? await deps.localProvider.authenticateSetup(clientSecret, customer.customerId, approve)
          : null;
        if (!result) throw notFound(billingMessages.noSuchSetup);
        if (result === 'not_pending') throw conflict(billingMessages.noCheckPending);
        await startAfterLocalSetup(session.userId, customer, result, context.correlationId, true);
        return { status: result.status, message: result.message, challengeUrl: null };
      },

      createSubscriptionAfterSetup: async (_parent, _args, context) => {
        const session = requireSession(context);
        const userId = session.userId;
        const customer = await customers.findById(userId).lean();
        if (!customer?.setupIntentId) throw badInput('setupIntent', billingMessages.setupFirst);
        if (customer.setupPurpose === 'change_card') throw badInput('setupIntent', billingMessages.setupChangesCard);
        // The confirmation or Stripe's webhook may have started it already: the same subscription, once.
        const started = await deps.starter.startedBy(userId, customer.setupIntentId);
        if (started) return answerStarted(started);
        const existing = await subscriptions.findById(userId).lean<SubscriptionRecord>();
        const refusal = startRefusal(existing, await clock.now());
        // The other path may have stored this setup's subscription since the first read, and not yet marked its
        // start finished: a claimed start is waited for and answered below, never refused as someone else's.
        if (refusal && !(await deps.starter.starting(customer.setupIntentId))) throw refusedStart(refusal);
        const paymentMethodId = await provider.confirmedPaymentMethod(customer.setupIntentId);
        if (!paymentMethodId) throw badInput('setupIntent', billingMessages.setupFirst);
        return answerStarted(
          await deps.starter.startAfterSetup({
            userId,
            setupIntentId: customer.setupIntentId,
            paymentMethodId,
            correlationId: context.correlationId,
          }),
        );
      },

      updatePaymentMethodAfterSetup: async (_parent, _args, context) => {
        const session = requireSession(context);
        const userId = session.userId;
        const current = await subscriptions.findById(userId).lean<SubscriptionRecord>();
        if (!current || !openAtProvider(current)) throw notFound(billingMessages.noCardToChange);
        const customer = await customers.findById(userId).lean();
        if (!customer?.setupIntentId || customer.setupPurpose !== 'change_card')
          throw badInput('setupIntent', billingMessages.changeCardFirst);
        const paymentMethodId = await provider.confirmedPaymentMethod(customer.setupIntentId);
        if (!paymentMethodId) throw badInput('setupIntent', billingMessages.changeCardFirst);
        const changed = await deps.cardChanger.applyAfterSetup({
          userId,
          setupIntentId: customer.setupIntentId,
          paymentMethodId,
          correlationId: context.correlationId,
        });
        // Ended or replaced between the reads and the change: as if asked a moment later.
        if (!changed) throw notFound(billingMessages.noCardToChange);
        const message =
          changed.outcome === 'paid'
            ? billingMessages.cardUpdatedAndPaid(changed.currentPeriodEnd)
            : changed.outcome === 'still_unpaid'
              ? billingMessages.cardUpdatedStillUnpaid
              : billingMessages.cardUpdated;
        return { message, subscriptionStatus: await statusNow(userId) };
      },

      cancelSubscription: async (_parent, _args, context) => {
        const session = requireSession(context);
        const now = await clock.now();
        const current = await subscriptions.findById(session.userId).lean<SubscriptionRecord>();
        const view = subscriptionStatusOf(current, now);
        if (!current || !view.hasActiveSubscription) throw notFound(billingMessages.nothingToCancel);
        if (current.cancelAtPeriodEnd) throw conflict(billingMessages.alreadyCancelled);
        await provider.setCancelAtPeriodEnd({
          subscriptionId: current.subscriptionId,
          cancel: true,
          idempotencyKey: `cancel-${current._id}-${current.revision}`,
        });
        ensureApplied(
          await changeSubscription(
            subscriptions,
            current,
            { cancelAtPeriodEnd: true },
            'billing.canceled',
            now,
            context.correlationId,
          ),
        );
        deps.publishSoon();
        const end = view.isTrialing ? current.trialEnd : current.currentPeriodEnd;
        return {
          message: billingMessages.cancelled(view.isTrialing, end),
          subscriptionStatus: await statusNow(session.userId),
        };
      },

      reactivateSubscription: async (_parent, _args, context) => {
        const session = requireSession(context);
        const now = await clock.now();
        const current = await subscriptions.findById(session.userId).lean<SubscriptionRecord>();
        const view = subscriptionStatusOf(current, now);
        if (!current || !view.hasActiveSubscription) throw notFound(billingMessages.noSubscription);
        if (!current.cancelAtPeriodEnd) throw conflict(billingMessages.nothingToReactivate);
        await provider.setCancelAtPeriodEnd({
          subscriptionId: current.subscriptionId,
          cancel: false,
          idempotencyKey: `reactivate-${current._id}-${current.revision}`,
        });
        ensureApplied(
          await changeSubscription(
            subscriptions,
            current,
            { cancelAtPeriodEnd: false },
            'billing.reactivated',
            now,
            context.correlationId,
          ),
        );
        deps.publishSoon();
        const end = view.isTrialing ? current.trialEnd : current.currentPeriodEnd;
        return {
          message: billingMessages.reactivated(view.isTrialing, end),
          subscriptionStatus: await statusNow(session.userId),
        };
      },

      // Billing's one clock, not anyone's account: the service credential (@internal) is what lets a test move it.
      advanceBillingClock: async (_parent, { seconds }) => {
        if (!deps.testClock)
          throw new GraphQLError(billingMessages.testClockDisabled, { extensions: { code: 'NOT_FOUND' } });
        if (seconds <= 0 || seconds > 400 * 24 * 60 * 60)
          throw badInput('seconds', 'Seconds must be between 1 and 34560000');
        const now = await clock.advance(seconds * 1000);
        await deps.scheduler.runOnce();
        return Math.floor(now.getTime() / 1000);
      },
    },
    User: {
      ...erasure.User,
      // A user's subscription is the owner's or an admin's to read.
      __resolveReference: async (reference, context) =>
        (await mayReadUser(context, reference.id)) ? { id: reference.id } : null,
      subscriptionStatus: async ({ id }, _args, context) => {
        const loader = requestLoader(context, 'subscriptions', (ids) => findSubscriptionsByUserIds(subscriptions, ids));
        return subscriptionStatusOf(await loader.load(id), await clock.now());
      },
      // The card is the owner's alone to see (an admin reads the subscription's state, not the card): null otherwise.
      paymentMethod: async ({ id }, _args, context) => {
        if (!context.session || context.session.userId !== id) return null;
        const current = await subscriptions.findById(id, { paymentMethodId: 1 }).lean<SubscriptionRecord>();
        return current?.paymentMethodId ? provider.describePaymentMethod(current.paymentMethodId) : null;
      },
      // The owner's alone, as the card is. Only the newest setup counts, and only while it is a card change.
      cardChangeStatus: async ({ id }, _args, context) => {
        if (!context.session || context.session.userId !== id) return null;
        const customer = await customers.findById(id, { setupIntentId: 1, setupPurpose: 1 }).lean();
        if (!customer?.setupIntentId || customer.setupPurpose !== 'change_card') return null;
        const status = await provider.setupStatus(customer.setupIntentId);
        return status === 'processing' || status === 'requires_action' ? status : null;
      },
      // The owner's alone, as the card is: anyone else (an admin too) gets an empty list.
      invoices: async ({ id }, _args, context) => {
        if (!context.session || context.session.userId !== id) return [];
        const customerId = (await customers.findById(id, { customerId: 1 }).lean())?.customerId;
        if (!customerId) return [];
        const invoices = await provider.listInvoices({ customerId, limit: invoiceLimit });
        return invoices.map((invoice) => ({ ...invoice, date: invoice.date.toISOString() }));
      },
      trialAvailable: ({ id }, _args, context) => trialAvailableFor(id, context),
      subscriptionOffer: async ({ id }, _args, context) => {
        const offer = subscriptionOfferAt(await trialAvailableFor(id, context), await clock.now());
        return { ...offer, firstChargeAt: offer.firstChargeAt.getTime() / 1000 };
      },
    },
  };
}
