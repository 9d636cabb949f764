/**
 * The copy of the person's safety plan this device keeps, so the plan opens without a connection: a hard moment
 * does not wait for a signal. It is forgotten when the person signs out here, and whenever Haven answers that
 * nobody is signed in.
 */
import { safetyPlanSectionKeys, type SafetyPlanSections } from '@haven/domain/src/safety-plan';
import { deviceCopy } from './deviceCopy';

export type SafetyPlanCopy = SafetyPlanSections & { updatedAt: string };

const copy = deviceCopy<SafetyPlanCopy>('haven:safety-plan', (fields) =>
  [...safetyPlanSectionKeys, 'updatedAt'].every((key) => typeof fields[key] === 'string'),
);

/** Keeps the plan as the server answered it; no plan (none written, or cleared) forgets the copy. */
export const keepSafetyPlanCopy = copy.keep;
export const forgetSafetyPlanCopy = copy.forget;
/** The copy kept here, or null when there is none or it is not a plan. */
export const safetyPlanCopy = copy.read;
