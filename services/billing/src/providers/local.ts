import { createHash, randomBytes } from 'node:crypto';
import { Schema, type Connection } from 'mongoose';
import { addMonth, trialEndFrom } from '../domain/lifecycle';
import { premiumPrice } from '../domain/price';
import type { PaymentMethodSummary, PaymentProvider } from '../domain/provider';
import {
  authenticationFailedMessage,
  brandOfCardNumber,
  outcomeOfTestCard,
  processingSetupMs,
  type CardOutcome,
} from '../domain/test-cards';

interface LocalSetupIntent {
  _id: string;
  customerId: string;
  clientSecret: string;
  status: 'requires_payment_method' | 'requires_action' | 'processing' | 'succeeded';
  paymentMethodId: string | null;
  /** What a real provider answers about the confirmed card (never its number); null until confirmed. */
  card: PaymentMethodSummary | null;
  /** The card waiting for the bank's check (requires_action) or the provider (processing); null otherwise. */
  pendingCard: PaymentMethodSummary | null;
  /** When a processing setup succeeds (billing's clock); null otherwise. */
  settlesAt?: Date | null;
}

const cardSchema = new Schema<PaymentMethodSummary>(
  {
    brand: { type: String, required: true },
    last4: { type: String, required: true },
    expMonth: { type: Number, required: true },
    expYear: { type: Number, required: true },
  },
  { _id: false },
);

const setupIntentSchema = new Schema<LocalSetupIntent>(
  {
    _id: { type: String, required: true },
    customerId: { type: String, required: true },
    clientSecret: { type: String, required: true, unique: true },
    status: { type: String, required: true },
    paymentMethodId: { type: String, default: null, index: true },
    card: { type: cardSchema, default: null },
    pendingCard: { type: cardSchema, default: null },
    settlesAt: { type: Date, default: null },
  },
  { collection: 'local_setup_intents', versionKey: false },
);
setupIntentSchema.index({ status: 1, settlesAt: 1 });

/**
 * The local provider's own record of a subscription (what Stripe's dashboard would show): whether it is
 * cancelled. It names the customer only until the customer is deleted.
 */
interface LocalSubscription {
  _id: string;
  customerId: string | null;
  status: 'trialing' | 'active' | 'payment_failed' | 'canceled';
  createdAt: Date;
  canceledAt: Date | null;
}

const localSubscriptionSchema = new Schema<LocalSubscription>(
  {
    _id: { type: String, required: true },
    customerId: { type: String, default: null, index: true },
    status: { type: String, required: true },
    createdAt: { type: Date, required: true },
    canceledAt: { type: Date, default: null },
  },
  { collection: 'local_subscriptions', versionKey: false },
);

/**
 * The local provider's record of each charge it makes (what Stripe keeps as invoices): named by customer id, and
 * deleted with the customer. A charge that fails stays open until a retry pays it.
 */
interface LocalInvoice {
  _id: string;
  customerId: string;
  subscriptionId: string;
  createdAt: Date;
  amount: number;
  currency: string;
  status: 'paid' | 'open';
}

const localInvoiceSchema = new Schema<LocalInvoice>(
  {
    _id: { type: String, required: true },
    customerId: { type: String, required: true },
    subscriptionId: { type: String, required: true },
    createdAt: { type: Date, required: true },
    amount: { type: Number, required: true },
    currency: { type: String, required: true },
    status: { type: String, required: true },
  },
  { collection: 'local_invoices', versionKey: false },
);
localInvoiceSchema.index({ customerId: 1, createdAt: -1 });
localInvoiceSchema.index({ subscriptionId: 1, status: 1 });

/** Ids derived from the idempotency key: the same key names the same object, as with Stripe. */
const idFrom = (prefix: string, key: string) =>
  `${prefix}_local_${createHash('sha256').update(key).digest('hex').slice(0, 24)}`;
/** No card on file cannot be charged, as with Stripe. */
function outcomeOfPaymentMethod(paymentMethodId: string | null | undefined): CardOutcome {
  if (!paymentMethodId || paymentMethodId.startsWith('pm_local_charge_fails')) return 'charge_fails';
  return paymentMethodId.startsWith('pm_local_processing_error') ? 'processing_error' : 'ok';
}
/** What a charge is when the provider does not answer: an error, for the caller to retry later. */
function charged(paymentMethodId: string | null | undefined): boolean {
  const outcome = outcomeOfPaymentMethod(paymentMethodId);
  if (outcome === 'processing_error') throw new Error('the test-mode provider could not process the charge');
  return outcome === 'ok';
}

export interface LocalSetupAnswer {
  customerId: string;
  setupIntentId: string;
  status: 'succeeded' | 'requires_payment_method' | 'requires_action' | 'processing';
  /** The card the setup confirmed (null when it was declined or waits for the bank). */
  paymentMethodId: string | null;
  message: string | null;
  /** Where the person answers the bank's check (Haven's own stand-in page); set only with requires_action. */
  challengeUrl: string | null;
}

export interface LocalProvider extends PaymentProvider {
  /** What Stripe.js does in the browser with Stripe: confirms the setup with a card (`now`: billing's clock). */
  confirmSetup(
    clientSecret: string,
    customerId: string,
    cardDigits: string,
    now: Date,
  ): Promise<LocalSetupAnswer | null>;
  /**
   * The processing setups whose time has come, now succeeded (what Stripe's later `setup_intent.succeeded`
   * reports): each is answered once, by the call that moved it on.
   */
  settleProcessingSetups(now: Date): Promise<LocalSetupAnswer[]>;
  /**
   * The bank's check of a card that needs it (what Stripe's hosted challenge page does): approved, the card is
   * saved as a confirmed one is; failed, the setup asks for a card again. Null when the setup is not the
   * customer's; 'not_pending' when it waits for no check.
   */
  authenticateSetup(
    clientSecret: string,
    customerId: string,
    approve: boolean,
  ): Promise<LocalSetupAnswer | 'not_pending' | null>;
}

/** The local provider's stand-in for the bank's challenge page, on Haven's own origin (as Stripe's return URL). */
export function localChallengeUrl(setupIntentId: string, clientSecret: string): string {
  const query = new URLSearchParams({ setup_intent: setupIntentId, setup_intent_client_secret: clientSecret });
  return `/local-payments/authenticate?${query.toString()}`;
}

/**
 * The test form takes no expiry, so every test card expires in December four years after it was added: always in
 * the future, as a card just added is.
 */
function testCardSummary(cardDigits: string, now: Date): PaymentMethodSummary {
  return {
    brand: brandOfCardNumber(cardDigits),
    last4: cardDigits.slice(-4),
    expMonth: 12,
    expYear: now.getUTCFullYear() + 4,
  };
}

/** Test mode without Stripe: the same lifecycle, decided by the test card's number; nothing is ever charged. */
export function localProvider(connection: Connection): LocalProvider {
  const intents = connection.model<LocalSetupIntent>('LocalSetupIntent', setupIntentSchema);
  const localSubscriptions = connection.model<LocalSubscription>('LocalSubscription', localSubscriptionSchema);
  const invoices = connection.model<LocalInvoice>('LocalInvoice', localInvoiceSchema);
  /** One invoice per charge: the charge's idempotency key names it, so a retried charge keeps one. */
  const recordInvoice = async (
    input: { customerId: string; subscriptionId: string; now: Date; idempotencyKey: string },
    paid: boolean,
    amount = premiumPrice.amount,
  ) => {
    await invoices.updateOne(
      { _id: idFrom('in', input.idempotencyKey) },
      {
        $set: { status: paid ? 'paid' : 'open' },
        $setOnInsert: {
          customerId: input.customerId,
          subscriptionId: input.subscriptionId,
          createdAt: input.now,
          amount,
          currency: premiumPrice.currency,
        },
      },
      { upsert: true },
    );
  };
  return {
    name: 'local',
    runsLifecycleLocally: true,
    // From the key, not the user id: the provider's records do not name Haven's users.
    ensureCustomer: async ({ idempotencyKey }) => idFrom('cus', idempotencyKey),
    createSetupIntent: async ({ customerId, idempotencyKey }) => {
      const setupIntentId = idFrom('seti', idempotencyKey);
      const created = await intents.findOneAndUpdate(
        { _id: setupIntentId },
        {
          $setOnInsert: {
            customerId,
            clientSecret: `${setupIntentId}_secret_${randomBytes(12).toString('hex')}`,
            status: 'requires_payment_method',
            paymentMethodId: null,
            card: null,
            pendingCard: null,
          },
        },
        { upsert: true, new: true },
      );
      return { setupIntentId, clientSecret: created.clientSecret };
    },
    confirmSetup: async (clientSecret, customerId, cardDigits, now) => {
      // Someone else's setup is no different from none.
      const intent = await intents.findOne({ clientSecret, customerId }).lean();
      if (!intent) return null;
      const { outcome, message } = outcomeOfTestCard(cardDigits);
      const setup = { customerId: intent.customerId, setupIntentId: intent._id, challengeUrl: null };
      if (outcome === 'declined')
        return { ...setup, status: 'requires_payment_method', paymentMethodId: null, message };
      // Only what a real provider would answer about the card is kept: brand, last four digits, expiry.
      const card = testCardSummary(cardDigits, new Date());
      if (outcome === 'processing') {
        await intents.updateOne(
          { _id: intent._id },
          {
            $set: {
              status: 'processing',
              paymentMethodId: null,
              card: null,
              pendingCard: card,
              settlesAt: new Date(now.getTime() + processingSetupMs),
            },
          },
        );
        return { ...setup, status: 'processing', paymentMethodId: null, message: null };
      }
      if (outcome === 'requires_action') {
        await intents.updateOne(
          { _id: intent._id },
          { $set: { status: 'requires_action', paymentMethodId: null, card: null, pendingCard: card } },
        );
        return {
          ...setup,
          status: 'requires_action',
          paymentMethodId: null,
          message: null,
          challengeUrl: localChallengeUrl(intent._id, intent.clientSecret),
        };
      }
      const paymentMethodId = `pm_local_${outcome}_${randomBytes(8).toString('hex')}`;
      await intents.updateOne(
        { _id: intent._id },
        { $set: { status: 'succeeded', paymentMethodId, card, pendingCard: null } },
      );
      return { ...setup, status: 'succeeded', paymentMethodId, message: null };
    },
    authenticateSetup: async (clientSecret, customerId, approve) => {
      const intent = await intents.findOne({ clientSecret, customerId }).lean();
      if (!intent) return null;
      const setup = { customerId: intent.customerId, setupIntentId: intent._id, challengeUrl: null };
      // Once: only the intent still waiting for the check changes, so a second answer changes nothing.
      const paymentMethodId = approve ? `pm_local_ok_${randomBytes(8).toString('hex')}` : null;
      const answered = await intents.findOneAndUpdate(
        { _id: intent._id, status: 'requires_action' },
        approve
          ? { $set: { status: 'succeeded', paymentMethodId, card: intent.pendingCard, pendingCard: null } }
          : { $set: { status: 'requires_payment_method', paymentMethodId: null, card: null, pendingCard: null } },
        { new: true },
      );
      if (!answered) return 'not_pending';
      return approve
        ? { ...setup, status: 'succeeded', paymentMethodId, message: null }
        : { ...setup, status: 'requires_payment_method', paymentMethodId: null, message: authenticationFailedMessage };
    },
    settleProcessingSetups: async (now) => {
      const due = await intents
        .find({ status: 'processing', settlesAt: { $lte: now } })
        .limit(100)
        .lean();
      const settled: LocalSetupAnswer[] = [];
      for (const intent of due) {
        const paymentMethodId = `pm_local_ok_${randomBytes(8).toString('hex')}`;
        // Only the intent still processing moves on: two passes at once settle it once.
        const moved = await intents.findOneAndUpdate(
          { _id: intent._id, status: 'processing' },
          {
            $set: {
              status: 'succeeded',
              paymentMethodId,
              card: intent.pendingCard,
              pendingCard: null,
              settlesAt: null,
            },
          },
        );
        if (moved) {
          settled.push({
            customerId: intent.customerId,
            setupIntentId: intent._id,
            status: 'succeeded',
            paymentMethodId,
            message: null,
            challengeUrl: null,
          });
        }
      }
      return settled;
    },
    setupStatus: async (setupIntentId) => (await intents.findById(setupIntentId, { status: 1 }).lean())?.status ?? null,
    confirmedPaymentMethod: async (setupIntentId) => {
      const intent = await intents.findById(setupIntentId).lean();
      return intent?.status === 'succeeded' ? intent.paymentMethodId : null;
    },
    createSubscription: async ({ customerId, paymentMethodId, trialDays, now, idempotencyKey }) => {
      const subscriptionId = idFrom('sub', idempotencyKey);
      const remember = async (status: LocalSubscription['status']) => {
        await localSubscriptions.updateOne(
          { _id: subscriptionId },
          { $setOnInsert: { customerId, status, createdAt: now, canceledAt: null } },
          { upsert: true },
        );
      };
      const invoice = { customerId, subscriptionId, now, idempotencyKey };
      if (trialDays > 0) {
        const trialEnd = trialEndFrom(now);
        await remember('trialing');
        // As Stripe does: a subscription that starts with a trial has a £0.00 invoice, paid.
        await recordInvoice(invoice, true, 0);
        return { subscriptionId, status: 'trialing', trialEnd, currentPeriodEnd: trialEnd };
      }
      // A returning subscriber pays for the first month at once.
      const paid = charged(paymentMethodId);
      await remember(paid ? 'active' : 'payment_failed');
      await recordInvoice(invoice, paid);
      return {
        subscriptionId,
        status: paid ? 'active' : 'payment_failed',
        trialEnd: null,
        currentPeriodEnd: paid ? addMonth(now) : null,
      };
    },
    describePaymentMethod: async (paymentMethodId) =>
      (await intents.findOne({ paymentMethodId, status: 'succeeded' }).lean())?.card ?? null,
    setCancelAtPeriodEnd: async () => undefined,
    // The card is billing's record's paymentMethodId: nothing else to tell the test-mode provider.
    setDefaultPaymentMethod: async () => undefined,
    // As Stripe does: the failed charge's open invoice is the one paid now (a new one when none is open).
    retryOpenCharge: async ({ subscriptionId, customerId, paymentMethodId, now, idempotencyKey }) => {
      const paid = charged(paymentMethodId);
      const open = await invoices.findOne({ subscriptionId, status: 'open' }).sort({ createdAt: -1 }).lean();
      if (open) {
        if (paid) await invoices.updateOne({ _id: open._id }, { $set: { status: 'paid' } });
      } else {
        await recordInvoice({ customerId, subscriptionId, now, idempotencyKey }, paid);
      }
      return { paid, currentPeriodEnd: paid ? addMonth(now) : null };
    },
    charge: async (input) => {
      const paid = charged(input.paymentMethodId);
      await recordInvoice(input, paid);
      return paid;
    },
    listInvoices: async ({ customerId, limit }) =>
      (await invoices.find({ customerId }).sort({ createdAt: -1, _id: -1 }).limit(limit).lean()).map((invoice) => ({
        id: invoice._id,
        date: invoice.createdAt,
        amount: invoice.amount,
        currency: invoice.currency,
        status: invoice.status,
        hostedInvoiceUrl: null,
      })),
    cancelNow: async ({ subscriptionId }) => {
      await localSubscriptions.updateOne(
        { _id: subscriptionId, status: { $ne: 'canceled' } },
        { $set: { status: 'canceled', canceledAt: new Date() } },
      );
    },
    deleteCustomer: async ({ customerId }) => {
      await intents.deleteMany({ customerId });
      await invoices.deleteMany({ customerId });
      await localSubscriptions.updateMany({ customerId }, { $set: { customerId: null } });
    },
  };
}
