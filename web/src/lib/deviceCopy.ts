/**
 * A copy of what the server last answered, kept on this device (localStorage) so a page opens without a
 * connection. Storage refused (private mode, full) keeps nothing, and the app still works online; a stored value
 * that is not whole (an older shape, edited by hand) reads as none.
 */
export interface DeviceCopy<T> {
  /** Keeps the value; null forgets it. */
  keep(value: T | null): void;
  forget(): void;
  /** The value kept here, or null when there is none or it is not whole. */
  read(): T | null;
}

export function deviceCopy<T extends object>(
  storageKey: string,
  isWhole: (kept: Record<string, unknown>) => boolean,
): DeviceCopy<T> {
  const keep = (value: T | null) => {
    try {
      if (value) localStorage.setItem(storageKey, JSON.stringify(value));
      else localStorage.removeItem(storageKey);
    } catch {
      // Storage refused: nothing is kept.
    }
  };
  return {
    keep,
    forget: () => keep(null),
    read: () => {
      try {
        const kept: unknown = JSON.parse(localStorage.getItem(storageKey) ?? 'null');
        if (typeof kept !== 'object' || kept === null) return null;
        return isWhole(kept as Record<string, unknown>) ? (kept as T) : null;
      } catch {
        return null;
      }
    },
  };
}
