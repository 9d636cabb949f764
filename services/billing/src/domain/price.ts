import { plan } from './lifecycle';

/**
 * Premium's price, as Stripe's Price holds it (minor units) and as people read it: the plan's own, so billing
 * writes it in one place. The local provider charges it, and billing's messages say it.
 */
export const premiumPrice: { readonly amount: number; readonly currency: string } = {
  amount: plan.priceMinor,
  currency: plan.currency,
};

/** "£4.99": the price as the messages write it (VAT included). */
export const premiumPriceText = `£${(premiumPrice.amount / 100).toFixed(2)}`;
