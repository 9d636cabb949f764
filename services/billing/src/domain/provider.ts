/**
 * The card provider behind billing: Stripe, or the local test-mode provider for machines without Stripe keys.
 * Every write carries an idempotency key, so a retried request never makes a second customer or subscription.
 */
export type ProviderName = 'local' | 'stripe';

export interface ProviderSetupIntent {
  setupIntentId: string;
  clientSecret: string;
}

export interface ProviderSubscription {
  subscriptionId: string;
  status: 'trialing' | 'active' | 'payment_failed';
  trialEnd: Date | null;
  currentPeriodEnd: Date | null;
}

export interface PaymentProvider {
  name: ProviderName;
  /** Whether billing's scheduler runs trial and period ends (local), or the provider's webhooks report them (Stripe). */
  runsLifecycleLocally: boolean;
  ensureCustomer(input: { userId: string; email: string; idempotencyKey: string }): Promise<string>;
  /** The intent names the user (Stripe's metadata), so its webhook can start the user's subscription. */
  createSetupIntent(input: {
    customerId: string;
    userId: string;
    idempotencyKey: string;
  }): Promise<ProviderSetupIntent>;
  /** The payment method a setup intent confirmed, or null when it did not succeed. */
  confirmedPaymentMethod(setupIntentId: string): Promise<string | null>;
  createSubscription(input: {
    customerId: string;
    paymentMethodId: string;
    trialDays: number;
    now: Date;
    idempotencyKey: string;
  }): Promise<ProviderSubscription>;
  setCancelAtPeriodEnd(input: { subscriptionId: string; cancel: boolean; idempotencyKey: string }): Promise<void>;
  /** Charges one period (local provider only: Stripe charges by itself). True when the payment went through. */
  charge(input: { paymentMethodId: string; idempotencyKey: string }): Promise<boolean>;
  /** Cancels a subscription now (an account deletion); one already gone counts as done. */
  cancelNow(input: { subscriptionId: string }): Promise<void>;
  /** Deletes the provider's customer with the payment methods it holds; one already gone counts as done. */
  deleteCustomer(input: { customerId: string }): Promise<void>;
}
