/**
 * Premium's price, as Stripe's Price holds it (minor units) and as people read it. The one place it is written in
 * billing: the local provider charges it, and billing's messages say it.
 */
export const premiumPrice: { readonly amount: number; readonly currency: string } = { amount: 499, currency: 'gbp' };

/** "£4.99": the price as the messages write it (VAT included). */
export const premiumPriceText = `£${(premiumPrice.amount / 100).toFixed(2)}`;
