import { deliveryKey } from '../src/model/delivery';

describe('deliveryKey', () => {
  it('names the event and the kind but never the address, which logs and traces would then carry', () => {
    const key = deliveryKey('event-1', 'welcome', 'Robin.Example@example.org');
    expect(key.startsWith('event-1:welcome:')).toBe(true);
    expect(key.toLowerCase()).not.toContain('robin');
    expect(key.toLowerCase()).not.toContain('example.org');
  });

  it('is one key per recipient whatever the address case, and differs between recipients', () => {
    expect(deliveryKey('event-1', 'welcome', 'Robin@Example.org')).toBe(
      deliveryKey('event-1', 'welcome', 'robin@example.org'),
    );
    expect(deliveryKey('event-1', 'welcome', 'robin@example.org')).not.toBe(
      deliveryKey('event-1', 'welcome', 'sam@example.org'),
    );
  });
});
