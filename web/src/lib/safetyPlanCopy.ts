/**
 * The copy of the person's safety plan this device keeps, so the plan opens without a connection: a hard moment
 * does not wait for a signal. It is forgotten when the person signs out here, and whenever Haven answers that
 * nobody is signed in.
 */
import { safetyPlanSectionKeys, type SafetyPlanSections } from '@haven/platform/src/safety-plan';

export type SafetyPlanCopy = SafetyPlanSections & { updatedAt: string };

const storageKey = 'haven:safety-plan';

/** Keeps the plan as the server answered it; no plan (none written, or cleared) forgets the copy. */
export function keepSafetyPlanCopy(plan: SafetyPlanCopy | null): void {
  try {
    if (plan) localStorage.setItem(storageKey, JSON.stringify(plan));
    else localStorage.removeItem(storageKey);
  } catch {
    // Storage refused (private mode, full): the plan still works online.
  }
}

export const forgetSafetyPlanCopy = (): void => keepSafetyPlanCopy(null);

/** The copy kept here, or null when there is none or it is not a plan. */
export function safetyPlanCopy(): SafetyPlanCopy | null {
  try {
    const kept: unknown = JSON.parse(localStorage.getItem(storageKey) ?? 'null');
    if (typeof kept !== 'object' || kept === null) return null;
    const fields = kept as Record<string, unknown>;
    const whole = [...safetyPlanSectionKeys, 'updatedAt'].every((key) => typeof fields[key] === 'string');
    return whole ? (kept as SafetyPlanCopy) : null;
  } catch {
    return null;
  }
}
