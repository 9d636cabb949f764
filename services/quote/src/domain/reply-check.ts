/**
 * The AI provider's reply, checked against the voice guide's "never" list before anyone sees it. A reply that
 * breaks a rule is not shown: the composer writes the message for the same check-in instead. Each rule is a
 * short list of English patterns, written for what a supportive message has no reason to say; a false alarm
 * costs only a composer message in place of the provider's, so the rules lean towards refusing.
 */

export type ReplyRule =
  | 'methods-or-means'
  | 'suicide-language'
  | 'diagnosis'
  | 'medication'
  | 'directive'
  | 'promise-of-cure'
  | 'link-or-number';

const rules: Record<ReplyRule, RegExp[]> = {
  // Never describe methods or means (safe-messaging guidance), however the reply meant it.
  'methods-or-means': [
    /\b(overdos\w*|noose|hang(ing|ed)? (yourself|myself|themselves)|(cut|cutting|slit|slitting) (your|my) wrists?|razors?|blades?|firearms?|guns?|poison\w*|bleach|ligature|jump(ing)? off)\b/i,
  ],
  // The crisis reply is fixed text; an ordinary reply does not talk about suicide or self-harm at all.
  'suicide-language': [
    /\b(suicid\w*|kill(ing)? (yourself|myself)|end(ing)? (your|my) (own )?life|self[- ]?harm\w*|take (your|my) own life|epidemic|better off dead|end it all)\b/i,
  ],
  // Haven does not diagnose.
  diagnosis: [
    /\b(diagnos\w*|disorders?|bipolar|ptsd|adhd|ocd|clinical(ly)? depress\w*|psychos[ie]s|psychotic)\b/i,
    /\byou (have|might have|may have|probably have|seem to have|are suffering from|suffer from)\s+(depression|anxiety|insomnia|burnout|trauma)\b/i,
  ],
  // No medication advice of any kind, prescription or not.
  medication: [
    /\b(medications?|medicines?|meds|antidepressants?|ssris?|sertraline|fluoxetine|prozac|xanax|diazepam|benzo\w*|melatonin|sleeping (pills?|tablets?)|pills?|dosages?|milligrams?|\d+\s?mg|ibuprofen|paracetamol|painkillers?|supplements?)\b/i,
  ],
  // Not "you should": an offer, never an instruction. A directive opens its clause ("You should…", "…, you
  // must…", "I think you need to…"); "something you have to earn" and "if you need to" are not directives.
  directive: [
    /(^|[.!?;:,]\s*|\b(and|but|so|now|today|tonight|just|really|honestly|then|think|feel|believe|maybe|perhaps|probably|i|we)\s+)you(’|')?(d| would)? (should|must|ought to|need to|have to|had better|better)\b/im,
  ],
  // No promises that a feeling will be fixed, cured or gone for good.
  'promise-of-cure': [
    /\b(cure[sd]?|(?<!\bnot )(will|would|can) (fix|cure|heal) (everything|this|you|it)|fixes everything|guarantee\w*|never feel (this way|bad|sad|low|anxious) again|make (it|this|everything) (all )?go away|gone for good)\b/i,
  ],
  // The provider cannot know a real number or address: any it writes may be made up.
  'link-or-number': [
    /\bhttps?:\/\/|\bwww\.|\b[\w-]+\.(com|org|net|uk|io|co|gov|nhs)\b/i,
    /[\w.+-]+@[\w-]+\.[\w.-]+/,
    // Phone numbers, short codes and emergency numbers all have a run of three digits or more.
    /\d{3,}/,
  ],
};

/** The first rule the reply breaks, or null when it may be shown as written. */
export function brokenReplyRule(reply: string): ReplyRule | null {
  for (const [rule, patterns] of Object.entries(rules) as Array<[ReplyRule, RegExp[]]>) {
    if (patterns.some((pattern) => pattern.test(reply))) return rule;
  }
  return null;
}
