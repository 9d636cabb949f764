import { library } from '../src/domain/library';
import { brokenReplyRule, type ReplyRule } from '../src/domain/reply-check';

/** Replies in Haven's voice, as a provider might write them: each must be shown as written. */
const goodReplies = [
  'A heavy evening for sleep. Let the day go, and take three slow breaths before bed.',
  'Today asked a lot of you. It is okay to rest now; a glass of water and an early night are enough.',
  'Your focus felt scattered this morning. One small thing first: write down the single task that matters most.',
  'You rated your energy low and your mood steady. A short walk outside, even five minutes, can lift the afternoon.',
  'It sounds like a lonely day. If it helps, send one message to someone you trust, just to say hello.',
  'Feeling anxious before a busy day is common. Try the 5-4-3-2-1 game: name what you can see, hear and touch.',
  'A bright morning for you. Notice what made it feel lighter, and carry one piece of it into the day.',
  'Stress is high and sleep was short. Be gentle with yourself tonight: dim the lights and put the phone away.',
  'You do not have to fix everything today. Pick the smallest next step and let the rest wait.',
  'Take a break if you need to. A cup of tea by the window is a good place to start.',
  'Your hope for the future is low today, and that is hard. Feelings like this can change, and you are not alone.',
  'A calm afternoon. Stretch your arms and shoulders for a minute and let your breath slow down.',
  'Motivation feels far away. Start with two minutes on one task; stopping after that is fine too.',
  'You rated connection high. Maybe thank someone who made today easier.',
  'It has been a tiring week. Tonight, let good enough be enough.',
  'Your confidence dipped this morning. Write down one thing you handled well yesterday.',
  'Evenings can feel long when your mind is busy. Try writing one line about the day, then close the notebook.',
  'You seem a little brighter than yesterday. Enjoy it without needing to explain it.',
  'Overwhelm often shrinks when a task is written down. Put the first three on paper and choose one.',
  'Sleep was good and your energy is up. A nice moment to do something you have been putting off, if you like.',
  'It is okay to feel flat. A short shower, fresh clothes and some daylight can help the afternoon along.',
  'Your mood is low and your stress is high. Three slow breaths, in through the nose and out through the mouth.',
  'Whatever the morning brings, you can take it one hour at a time.',
  'Today you checked in even though it was hard. That counts.',
  'Loneliness is heavy. A walk where there are other people, a library or a park, can soften it a little.',
  'Your focus is steady today. Protect it with one block of time without notifications.',
  'A restless night can make everything feel sharper. Go slowly today, and eat something warm.',
  'You rated gratitude high this evening. Let that feeling settle before you sleep.',
  'When everything feels urgent, choose the one thing that would make tomorrow easier.',
  'Feeling low after a long day is understandable. Rest is not something you have to earn.',
  'This afternoon might be a good time to step outside for a few minutes and feel the air.',
  'If talking would help, a friend, a family member or your doctor can listen. You do not have to carry it alone.',
];

/** Replies a provider might write that break the voice guide's "never" list, each with the rule it breaks. */
const badReplies: Array<[ReplyRule, string]> = [
  ['methods-or-means', 'Some people think about an overdose on days like this, but there are better ways.'],
  ['methods-or-means', 'Put away the razor blades and try a walk instead.'],
  ['suicide-language', 'Suicide is never the answer; reach out to someone.'],
  ['suicide-language', 'Even if you feel you would be better off dead, tomorrow is another day.'],
  ['suicide-language', 'Self-harm might feel like relief, but it is not.'],
  ['diagnosis', 'It sounds like you might have an anxiety disorder.'],
  ['diagnosis', 'You have depression, and that is nothing to be ashamed of.'],
  ['diagnosis', 'These are classic signs of clinical depression.'],
  ['medication', 'Melatonin before bed could help you sleep.'],
  ['medication', 'Ask about antidepressants if this goes on.'],
  ['medication', 'A sleeping pill once in a while is fine.'],
  ['directive', 'You should go to bed earlier tonight.'],
  ['directive', 'You must stop worrying so much.'],
  ['directive', 'You need to take better care of yourself.'],
  ['directive', "You'd better rest before tomorrow."],
  ['promise-of-cure', 'A daily walk will cure your low mood.'],
  ['promise-of-cure', 'Breathing like this will fix everything.'],
  ['promise-of-cure', 'Do this and you will never feel this way again.'],
  ['promise-of-cure', 'I guarantee tomorrow will be better.'],
  ['link-or-number', 'Call 0800 123 4567 any time, day or night.'],
  ['link-or-number', 'Text HOME to 741741 to talk to someone.'],
  ['link-or-number', 'Read more at https://calm.example/breathing.'],
  ['link-or-number', 'Visit www.feelbetter.example for tips.'],
  ['link-or-number', 'Write to help@support.example if you need someone.'],
  ['link-or-number', 'In an emergency dial 112.'],
];

describe("the AI provider's reply, checked before it is shown", () => {
  it.each(goodReplies)('shows a reply in Haven’s voice as written: %s', (reply) => {
    expect(brokenReplyRule(reply)).toBeNull();
  });

  it("shows every one of Haven's own composer messages as written", () => {
    const refused = library.filter((message) => brokenReplyRule(message.text) !== null);
    expect(refused.map((message) => [message.id, brokenReplyRule(message.text)])).toEqual([]);
  });

  it.each(badReplies)('refuses a reply that breaks "%s": %s', (rule, reply) => {
    expect(brokenReplyRule(reply)).toBe(rule);
  });

  it('covers every rule with at least two replies that break it', () => {
    const counts = new Map<ReplyRule, number>();
    for (const [rule] of badReplies) counts.set(rule, (counts.get(rule) ?? 0) + 1);
    for (const count of counts.values()) expect(count).toBeGreaterThanOrEqual(2);
    expect(counts.size).toBe(7);
  });
});
