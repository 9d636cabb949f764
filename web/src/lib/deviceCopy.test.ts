import { deviceCopy } from './deviceCopy';

/** The browser's storage, as a plain map (jest runs these in Node, which has none). */
const stored = new Map<string, string>();
let refuse = false;
Object.defineProperty(globalThis, 'localStorage', {
  value: {
    getItem: (key: string) => stored.get(key) ?? null,
    setItem: (key: string, value: string) => {
      if (refuse) throw new Error('QuotaExceededError');
      stored.set(key, value);
    },
    removeItem: (key: string) => void stored.delete(key),
  },
});

const copy = deviceCopy<{ name: string }>('haven:test-copy', (kept) => typeof kept.name === 'string');

beforeEach(() => {
  stored.clear();
  refuse = false;
});

it('reads back what it kept, and nothing once forgotten', () => {
  copy.keep({ name: 'Wren' });
  expect(copy.read()).toEqual({ name: 'Wren' });
  copy.forget();
  expect(copy.read()).toBeNull();
  expect(stored.has('haven:test-copy')).toBe(false);
});

it('reads a stored value that is not whole, or not JSON, as none', () => {
  stored.set('haven:test-copy', JSON.stringify({ name: 7 }));
  expect(copy.read()).toBeNull();
  stored.set('haven:test-copy', '{not json');
  expect(copy.read()).toBeNull();
  stored.set('haven:test-copy', 'null');
  expect(copy.read()).toBeNull();
});

it('keeps nothing, and throws nothing, when the browser refuses storage', () => {
  refuse = true;
  expect(() => copy.keep({ name: 'Wren' })).not.toThrow();
  expect(copy.read()).toBeNull();
});
