/**
 * The ratings that show crisis signals (docs/decisions/journal/crisis-rule.md): urgency of
 * need 5 with hope for the future 1 or 2, or hope 1 with urgency 4 and a support system rated 1. No imports: the
 * quote service's reply leads with people who can help by this rule, and the web app shows them by the same rule
 * at once for a check-in still waiting on the device for a connection.
 */
export interface CrisisRatings {
  urgencyOfNeed: number;
  hopeForFuture: number;
  supportSystemStrength: number;
}

export function isCrisis(ratings: CrisisRatings): boolean {
  const { urgencyOfNeed: urgency, hopeForFuture: hope, supportSystemStrength: support } = ratings;
  return (urgency === 5 && hope <= 2) || (urgency >= 4 && hope === 1 && support === 1);
}
