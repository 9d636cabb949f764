/**
 * Recognises crisis in a person's own words (a check-in's notes): suicidal intent or thoughts, self-harm, a plan
 * or means, and the hopelessness that signals risk. Pure, no I/O. Each language is one rule table; the steps
 * that read it (folding the spelling, setting aside idiom and other people's words, weighing negation and past
 * speech) are shared. When in doubt it answers yes: a needless crisis reply is a calm page of people to talk to,
 * a missed one leaves someone alone with a generic message.
 */

export type CrisisSignalKind = 'intent' | 'self-harm' | 'means' | 'hopelessness';

export interface CrisisSignal {
  kind: CrisisSignalKind;
  pattern: RegExp;
}

/**
 * One language's words. Patterns are written in ordinary spelling without apostrophes ("dont", "im"); doubled
 * letters in them are folded like the text's, so "kill" also matches "kil" and "killll".
 */
export interface CrisisWordRules {
  /** Phrases rewritten before matching: contractions written out, misspellings, slang and coded words. */
  spellings: ReadonlyArray<readonly [RegExp, string]>;
  /** Everyday idiom that looks like a signal ("killing myself laughing"); removed before matching. */
  idioms: readonly RegExp[];
  signals: readonly CrisisSignal[];
  /** A negation in the few words before a signal. It hides only hopelessness, or a thought said to be over. */
  negation: RegExp;
  /** Words after a negated signal that say the thought has passed ("anymore"). */
  stopped: RegExp;
  /** The person speaking of themselves, and of someone else, as the subject nearest before a signal. */
  self: RegExp;
  others: RegExp;
  /** After someone else's words, the person saying the same of themselves ("so do I"). */
  sharedFeeling: RegExp;
  /** Before a quotation: the person as its speaker ("I said"), or someone or something else ("the song goes"). */
  quotedBySelf: RegExp;
  quotedByOthers: RegExp;
  /** Right after a quotation: the words before a speech verb name its speaker ('"…" she said'). */
  speakerAfterQuotation: RegExp;
  /** Past speech counts as over only when the signal is long ago, the note says now is better, and nothing is back. */
  distantPast: RegExp;
  recovery: RegExp;
  relapse: RegExp;
}

/** Letters folded so doubled and drawn-out letters agree ("diiie", "kil", "killll"); not after a backslash. */
const foldDoubledLetters = (text: string) => text.replace(/(?<!\\)([a-z])\1+/g, '$1');

const fold = (pattern: RegExp) => new RegExp(foldDoubledLetters(pattern.source), pattern.flags.replace('g', ''));

const english: CrisisWordRules = {
  spellings: [
    [/\bdo not\b/, 'dont'],
    [/\bdoes not\b/, 'doesnt'],
    [/\bcan ?not\b/, 'cant'],
    [/\bwill not\b/, 'wont'],
    [/\bwould not\b/, 'wouldnt'],
    [/\bi am\b/, 'im'],
    [/\bi would\b/, 'id'],
    [/\bi have\b/, 'ive'],
    [/\bi will\b/, 'ill'],
    [/\bmy self\b/, 'myself'],
    [/\bwanna\b/, 'want to'],
    [/\bwnat\b/, 'want'],
    [/\bgonna\b/, 'going to'],
    [/\bthinkin\b/, 'thinking'],
    [/\b(bout|abt)\b/, 'about'],
    [/\btonite\b/, 'tonight'],
    [/\bu\b/, 'you'],
    [/\b(myslef|mysef|mysel|myslf|meself)\b/, 'myself'],
    [/\b(kll|kilk)\b/, 'kill'],
    [/\b(dieing|dyin)\b/, 'dying'],
    [/\b(sucide|suicde|suiside|suicid|suacide|sewerslide|sewer slide|su1cide)\b/, 'suicide'],
    [/\b(sucidal|suicdal|suisidal|suicidel|suacidal)\b/, 'suicidal'],
    [/\bkms\b/, 'kill myself'],
    [/\bun ?aliv(e|ing)\b/, 'unalive'],
    [/\bself ?-?harm/, 'self harm'],
  ],
  idioms: [
    /\bkilling myself (laughing|at work|with work|over (work|this)|to (hit|meet|get|finish|make|keep))/,
    /\bkill myself laughing\b/,
    /\b(cut|hurt|hit|burnt|burned|burn) myself (shaving|cooking|chopping|by accident|accidentally|while|at the gym|at work|at football|playing|lifting|running|on (?!purpose))/,
    /\brather (die|be dead) than (?!(live|living|feel|feeling|go on|going on|keep|carry on|be alive|wake|this|exist|be here))\w+/,
    /\bto die for\b/,
    /\bdying (to|of|for)\b/,
    /\b(bored|scared|sick|worked|working) (myself )?to death\b/,
    /\bdead (tired|on my feet|end)\b/,
    /\b(killed|killing|kill) (it|time)\b/,
    /\bthe death of me\b/,
    /\bcould (murder|kill for)\b/,
  ],
  signals: [
    // Intent and thoughts.
    { kind: 'intent', pattern: /\b(kill|killing|killed|end|ending|ended|unalive|hang|hanging|hanged) myself\b/ },
    { kind: 'intent', pattern: /\bunalive\b/ },
    { kind: 'intent', pattern: /\bwants? to (die|be dead)\b/ },
    { kind: 'intent', pattern: /\bwanted to (die|be dead)\b/ },
    { kind: 'intent', pattern: /\b(wish|hope|hoping|pray) (i|id) (could |would |just |will )?die\b/ },
    { kind: 'intent', pattern: /\b(ready|deserve) to die\b/ },
    { kind: 'intent', pattern: /\bdont deserve to (live|be alive|be here)\b/ },
    { kind: 'intent', pattern: /\bwish (i|im|id) (was|were|be|been) dead\b/ },
    { kind: 'intent', pattern: /\bwish (i|id) (had |was |were )?never (been born|born|existed)\b/ },
    { kind: 'intent', pattern: /\brather (die|be dead)\b/ },
    { kind: 'intent', pattern: /\bsuicidal\b/ },
    {
      kind: 'intent',
      pattern:
        /\b(commit|committing|attempt|attempted|attempting|think|thinking|thought|thoughts|considering|contemplating|planning) (of |about )?suicide\b/,
    },
    { kind: 'intent', pattern: /\bsuicide (note|plan|attempt)\b/ },
    { kind: 'intent', pattern: /\bsuicide (thoughts|thinking|ideation|urges)\b/ },
    {
      kind: 'intent',
      pattern: /\b(end|ending|take|taking|took) (my|my own) life\b/,
    },
    {
      kind: 'intent',
      pattern: /\b(end|ending) (it all|things|everything)\b(?! (with|between|off|for (him|her|them|us)))/,
    },
    {
      kind: 'intent',
      pattern: /\b(end|ending) it(?=\s*($|,|\b(all|and|but|tonight|today|now|soon|for good|forever)\b))/,
    },
    { kind: 'intent', pattern: /\b(think|thinking|thought|thoughts) (about|of) (dying|death|not being here)\b/ },
    { kind: 'intent', pattern: /\bdisappear (forever|for good|permanently|and never come back)\b/ },
    { kind: 'intent', pattern: /\b(stop|not|to not|cease to) exist(ing)?\b/ },
    { kind: 'intent', pattern: /\bdont (want|wish) to (live|be alive|be here|be around|exist|wake up)\b/ },
    { kind: 'intent', pattern: /\b(and|to|hope i|i) (never|not|dont) wake up\b/ },
    { kind: 'intent', pattern: /\b(want|wish|wishing)\b.{0,20}\b(sleep|asleep) forever\b/ },
    { kind: 'intent', pattern: /\bwant out of (life|this life|here)\b/ },
    { kind: 'intent', pattern: /\b(wont|will not|not) be (around|here) (much longer|for long|tomorrow|next week)\b/ },
    { kind: 'intent', pattern: /\b(this is|saying|said) (goodbye|my goodbyes)\b/ },
    { kind: 'intent', pattern: /\bwant (it all|everything|it) (to (end|stop|be over)|over)\b/ },
    { kind: 'intent', pattern: /\b(scared|afraid) (im|i) (going to|might|will) (do something|hurt|kill|end)\b/ },
    // Self-harm.
    {
      kind: 'self-harm',
      pattern:
        /\b(cut|cutting|burn|burnt|burned|burning|hurt|hurting|harm|harming|hit|hitting|punch|punching|scratch|scratching|starve|starving) myself\b/,
    },
    { kind: 'self-harm', pattern: /\bself (harm|injure|injury)(ed|ing)?\b/ },
    {
      kind: 'self-harm',
      pattern: /\b(started|start|been|keep|kept|am|im) cutting\b(?! (back|down|out|off|corners|class))/,
    },
    { kind: 'self-harm', pattern: /\burges? to (cut|self harm|hurt myself|harm myself)\b/ },
    { kind: 'self-harm', pattern: /\b(till|until) (i|they|it) (bleed|bleeds|bruise|bruises)\b/ },
    // A plan or means.
    {
      kind: 'means',
      pattern:
        /\b(saving|saved|stockpiling|stockpiled|hoarding|collecting|stashing) (up )?(my )?(pills|meds|tablets|medication|painkillers)\b/,
    },
    { kind: 'means', pattern: /\b(pills|meds|tablets) (saved|stockpiled|stashed)\b/ },
    {
      kind: 'means',
      pattern: /\bhow many (pills|tablets|paracetamol|painkillers|sleeping pills)\b.{0,25}\b(take|kill|die|enough)\b/,
    },
    {
      kind: 'means',
      pattern:
        /\b(take|took|taking|swallow|swallowed) (all|too many|a lot of|loads of) (of )?(my )?(pills|meds|tablets|painkillers)\b/,
    },
    {
      kind: 'means',
      pattern: /\boverdos(e|ed|ing)\b(?! on (?!(my|pills|meds|tablets|paracetamol|painkillers|insulin|sleeping)))/,
    },
    { kind: 'means', pattern: /\b(tie|tied|tying|made|make|making) a noose\b/ },
    { kind: 'means', pattern: /\bslit (my|both) wrists\b/ },
    { kind: 'means', pattern: /\b(know|knows) what (its|it is|they are|theyre) for\b/ },
    { kind: 'means', pattern: /\bknow (how|when|where) (ill|i will|im going to|i would|id) do it\b/ },
    { kind: 'means', pattern: /\b(have|got|made) a plan (to (die|end)|and i know)\b/ },
    { kind: 'means', pattern: /\b(goodbye|farewell) (letters|letter|notes|note)\b/ },
    { kind: 'means', pattern: /\bgiving away (all )?my (things|stuff|belongings)\b/ },
    { kind: 'means', pattern: /\bplanning (my funeral|my death|how to die)\b/ },
    { kind: 'means', pattern: /\b(painless )?ways to (die|go|end it)\b/ },
    { kind: 'means', pattern: /\bhow to (die|end it)\b/ },
    {
      kind: 'means',
      pattern: /\b(jump|jumping) (off|from) (the|a|my) (bridge|roof|building|balcony|cliff|edge|window|tower)\b/,
    },
    {
      kind: 'means',
      pattern: /\b(think|thinking|thought) (about|of) jumping\b(?! (in|into|on|at|ship|rope|the queue))/,
    },
    {
      kind: 'means',
      pattern:
        /\b(step|stepping|walk|walking|jump|jumping|throw myself|throwing myself) in front of (a|the) (train|bus|car|lorry|truck)\b/,
    },
    {
      kind: 'means',
      pattern:
        /\b(drive|driving|crash|crashing|swerve|swerving|steer|steering)( my car)? into (a|the) (wall|tree|river|oncoming|lorry|truck|bridge)\b/,
    },
    { kind: 'means', pattern: /\b(pills|tablets) on purpose\b/ },
    // Hopelessness that signals risk (a negation before it hides it: "not tired of life").
    {
      kind: 'hopelessness',
      pattern: /\bbetter off (dead|without me|not existing|if i (was|were|wasnt|werent) (gone|here|around|alive))\b/,
    },
    { kind: 'hopelessness', pattern: /\b(better|happier|easier) without me\b/ },
    { kind: 'hopelessness', pattern: /\b(happier|easier) if i (was|were) (dead|gone)\b/ },
    { kind: 'hopelessness', pattern: /\b(im|am|feel like|felt like|being) a burden\b/ },
    { kind: 'hopelessness', pattern: /\bnothing (left )?to live for\b/ },
    {
      kind: 'hopelessness',
      pattern:
        /\bno (reason|point) (to|in) (live|living|go on|going on|keep going|carry on|carrying on|be alive|being alive|be here|exist|existing|stay)\b(?! (to|with|holiday|a |the ))/,
    },
    {
      kind: 'hopelessness',
      pattern: /\bno point (in )?(living|going on|being alive|carrying on|anymore|in anything)\b/,
    },
    {
      kind: 'hopelessness',
      pattern:
        /\b(whats|what is) (the|even the) point (of|in) (living|being alive|life|going on|anything|it all|trying|existing)\b/,
    },
    { kind: 'hopelessness', pattern: /\b(whats|what is) the point anymore\b/ },
    { kind: 'hopelessness', pattern: /\blife (isnt|is not|aint) worth (living|it)\b/ },
    { kind: 'hopelessness', pattern: /\bnot worth living\b/ },
    { kind: 'hopelessness', pattern: /\blife is (pointless|meaningless)\b/ },
    { kind: 'hopelessness', pattern: /\btired of (living|being alive|life|existing|being here)\b/ },
    { kind: 'hopelessness', pattern: /\bdone with (life|living|being alive|it all)\b/ },
    { kind: 'hopelessness', pattern: /\b(give|giving|gave) up on (life|living)\b/ },
    { kind: 'hopelessness', pattern: /\bdont see a future\b/ },
    { kind: 'hopelessness', pattern: /\b(no|cant see a|dont see a) way out\b/ },
    { kind: 'hopelessness', pattern: /\bwhy (am i|be|am i even|do i stay|stay) alive\b/ },
    { kind: 'hopelessness', pattern: /\bhate being alive\b/ },
    {
      kind: 'hopelessness',
      pattern: /\b(nobody|no one|noone)\b.{0,25}\b(notice|care|miss me|miss)\b.{0,15}\b(if i|when im|when i)\b/,
    },
    {
      kind: 'hopelessness',
      pattern:
        /\bcant (go on|keep going|carry on)( like this| anymore| any more| any longer)*(?=\s*($|,|\b(and|but|i|im)\b))/,
    },
    {
      kind: 'hopelessness',
      pattern: /\bcant (do|take) (this|it)( anymore| any more| any longer)*(?=\s*($|,|\b(and|but|i|im)\b))/,
    },
  ],
  negation: /\b(not|never|no longer|dont|doesnt|didnt|isnt|wasnt|wont|wouldnt|aint|hardly|nobody|no one|noone)\b/,
  stopped: /^\W*(anymore|any more|any longer|these days)\b/,
  self: /\b(i|im|ive|id|ill|me|myself)\b/g,
  others:
    /\b(he|she|they|hes|shes|theyre|theyve|theyd|him|her|them|you|youre|friend|sister|brother|mum|mom|dad|son|daughter|partner|boyfriend|girlfriend|husband|wife|colleague|coworker|mate|character|someone|somebody|people|everyone|teen|girl|boy|man|woman|singer|rapper)\b/g,
  sharedFeeling: /\b(so do i|so am i|me too|same here|i do too|i feel the same|so have i)\b/,
  quotedBySelf:
    /\b(i|im|ive|id)\s+(\w+\s+){0,2}(said|say|saying|told|tell|telling|wrote|write|writing|typed|texted|screamed|shouted|whispered|thought|think|thinking|admitted)\b[^"]*$/,
  quotedByOthers:
    /\b(said|says|saying|told|tells|wrote|writes|joked|jokes|sang|sings|sing|goes|asked|asks|called|titled|line|lyric|lyrics|song|book|film|movie|show|quote|poem|character|meme|tweet|post|posted|tweeted|caption)\b/,
  speakerAfterQuotation:
    /^\W*((\w+\s+){0,3}?)(said|says|wrote|writes|sang|sings|joked|asked|goes|told|tells|screamed|shouted)\b/,
  distantPast:
    /\b(years? ago|months ago|a long time ago|last year|when i was|used to|back in|back then|as a (kid|child|teen|teenager)|in my (teens|twenties)|at school|in the past)\b/,
  recovery:
    /\b(now im|now i am|now i feel|doing (better|well|ok|okay|good|alright)|in a good place|(grateful|glad|happy|thankful) (that )?(im|i am|i) (still )?(here|alive|stayed)|clean for|been clean|therapy is working|better now|recovered|no longer)\b/,
  relapse:
    /\b(again|coming back|came back|are back|is back|returning|lately|recently|relapsed|relapse|starting to|so do i)\b/,
};

export const crisisWordRules = { en: english } satisfies Record<string, CrisisWordRules>;
export type CrisisWordLanguage = keyof typeof crisisWordRules;

/** How many words before a signal a negation reaches ("I'm not going to …"). */
const negationReach = 4;

function compile(rules: CrisisWordRules): CrisisWordRules {
  const global = (pattern: RegExp) => new RegExp(fold(pattern).source, 'g');
  return {
    spellings: rules.spellings.map(([pattern, spelling]) => [global(pattern), spelling] as const),
    idioms: rules.idioms.map(global),
    signals: rules.signals.map((signal) => ({ kind: signal.kind, pattern: global(signal.pattern) })),
    negation: fold(rules.negation),
    stopped: fold(rules.stopped),
    self: global(rules.self),
    others: global(rules.others),
    sharedFeeling: fold(rules.sharedFeeling),
    quotedBySelf: fold(rules.quotedBySelf),
    quotedByOthers: fold(rules.quotedByOthers),
    distantPast: fold(rules.distantPast),
    recovery: fold(rules.recovery),
    relapse: fold(rules.relapse),
    speakerAfterQuotation: fold(rules.speakerAfterQuotation),
  };
}

const compiled = new Map<CrisisWordLanguage, CrisisWordRules>();
function rulesFor(language: CrisisWordLanguage): CrisisWordRules {
  let rules = compiled.get(language);
  if (!rules) {
    rules = compile(crisisWordRules[language]);
    compiled.set(language, rules);
  }
  return rules;
}

/** Digits and signs written for letters inside a word ("k1ll", "mys3lf"). */
const lettersFor: Record<string, string> = {
  '0': 'o',
  '1': 'i',
  '3': 'e',
  '4': 'a',
  '5': 's',
  '7': 't',
  $: 's',
  '@': 'a',
};

/** Case, accents, apostrophes, quotation marks, hyphens, letters written as digits, doubled letters and spellings. */
export function normaliseWords(text: string, language: CrisisWordLanguage = 'en'): string {
  const rules = rulesFor(language);
  let folded = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[\u201c\u201d\u201e\u201f\u00ab\u00bb]/g, '"')
    .replace(/[\u2018\u2019\u201a\u201b\u0060\u00b4\u02bc]/g, "'")
    // A quotation in single marks becomes one in double marks, before apostrophes go.
    .replace(/(^|[^a-z0-9])'(.+?)'(?=[^a-z0-9]|$)/g, '$1"$2"')
    .replace(/'/g, '')
    .replace(/(?<=[a-z])[013457$@](?=[a-z])/g, (digit) => lettersFor[digit] ?? digit)
    .replace(/[-_*~]/g, ' ');
  folded = foldDoubledLetters(folded);
  for (const [pattern, spelling] of rules.spellings) folded = folded.replace(pattern, foldDoubledLetters(spelling));
  return folded.replace(/[^\S\n]+/g, ' ').trim();
}

const sentenceEnd = /[.!?;\n]/;

/** Removes quotations that someone or something else speaks ("the song goes '…'"); the person's own stay. */
function withoutOthersQuotations(text: string, rules: CrisisWordRules): string {
  return text.replace(/"([^"]*)"/g, (quotation, _inner: string, offset: number) => {
    const before = text.slice(0, offset);
    const sentenceStart = Math.max(...[...'.!?;\n'].map((mark) => before.lastIndexOf(mark))) + 1;
    const lead = before.slice(sentenceStart);
    const afterStart = offset + quotation.length;
    const rest = text.slice(afterStart);
    const tail = rest.slice(0, rest.search(sentenceEnd) === -1 ? rest.length : rest.search(sentenceEnd));
    if (rules.quotedBySelf.test(lead)) return quotation;
    if (rules.quotedByOthers.test(lead)) return ' ';
    const speaker = tail.match(rules.speakerAfterQuotation)?.[1];
    if (speaker === undefined) return quotation;
    return lastMatchIndex(rules.self, speaker) > lastMatchIndex(rules.others, speaker) ? quotation : ' ';
  });
}

function lastMatchIndex(pattern: RegExp, text: string): number {
  let last = -1;
  for (const match of text.matchAll(pattern)) last = match.index;
  return last;
}

/** The person's own signal, not someone else's: the nearest subject before it, unless they then say "so do I". */
function spokenBySelf(sentence: string, start: number, signal: string, rules: CrisisWordRules): boolean {
  if (new RegExp(rules.self.source).test(signal)) return true;
  const before = sentence.slice(0, start);
  const othersAt = lastMatchIndex(rules.others, before);
  if (othersAt <= lastMatchIndex(rules.self, before)) return true;
  return rules.sharedFeeling.test(sentence.slice(start));
}

/**
 * True when the words show crisis: a signal the person says of themselves now. A denial of intent or self-harm
 * still counts ("I'm not going to kill myself" names the thought); a negation hides only hopelessness, or a
 * thought the person says is over ("I don't want to die anymore"); long-ago speech counts unless the note says now
 * is better and nothing is coming back; idiom and the words of songs, books and other people do not count.
 */
export function recognisesCrisisInWords(text: string | null | undefined, language: CrisisWordLanguage = 'en'): boolean {
  if (!text || text.trim() === '') return false;
  const rules = rulesFor(language);
  let words = normaliseWords(text, language);
  for (const idiom of rules.idioms) words = words.replace(idiom, ' ');
  words = withoutOthersQuotations(words, rules).replace(/"/g, ' ');
  const recovered = rules.recovery.test(words) && !rules.relapse.test(words);
  for (const sentence of words.split(sentenceEnd)) {
    for (const { kind, pattern } of rules.signals) {
      for (const match of sentence.matchAll(pattern)) {
        const start = match.index;
        if (!spokenBySelf(sentence, start, match[0], rules)) continue;
        const before = sentence.slice(0, start).split(/\s+/).filter(Boolean);
        const lead = before.slice(-negationReach).join(' ');
        const negated = rules.negation.test(lead);
        const after = sentence.slice(start + match[0].length);
        const over = negated && (rules.stopped.test(after) || /\bno longer\b/.test(lead));
        if (over || (negated && kind === 'hopelessness')) continue;
        if (recovered && rules.distantPast.test(before.join(' '))) continue;
        return true;
      }
    }
  }
  return false;
}
