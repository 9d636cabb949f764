import { stripeCallName } from '../src/providers/stripe';

describe('stripeCallName', () => {
  it('names a call by its method and path, without its ids or query', () => {
    expect(stripeCallName('POST', '/v1/subscriptions/sub_1AbC/cancel')).toBe(
      'stripe POST /v1/subscriptions/{id}/cancel',
    );
    expect(stripeCallName('GET', '/v1/invoices?customer=cus_9zZ&limit=10')).toBe('stripe GET /v1/invoices');
    expect(stripeCallName('GET', '/v1/setup_intents/seti_1Pq2Rs')).toBe('stripe GET /v1/setup_intents/{id}');
    expect(stripeCallName('POST', '/v1/payment_methods/pm_1NvX8a2eZvKYlo2C/attach')).toBe(
      'stripe POST /v1/payment_methods/{id}/attach',
    );
  });
});
