/** Social & Relationships: connection with others, support system strength. */
import type { MessageGroup } from './types';

export const connection: MessageGroup = {
  dimension: 'connectionWithOthers',
  any: [
    'Feeling far from people is painful. Send one short message to someone you like, even just "thinking of you".',
    'Disconnection can make you feel invisible. You are not. Is there one person you could reply to today?',
    'Connection does not have to be a long talk. A smile at a neighbour or a thank you to a shop worker still counts.',
    'It is natural to pull back when you feel low. Try leaving the door open a little: one text, one call, one hello.',
    'Loneliness is a signal, like hunger. It tells you that you need people. Reach toward one person, gently.',
    'If reaching out feels hard, start with a photo or a song you can share with someone. It can be an easy way in.',
    'Sit somewhere with other people nearby, a café or a park bench. Being near others can ease the feeling of distance.',
    'Think of someone who has been kind to you. Let yourself remember how it felt. You can send that kindness back today.',
  ],
  morning: [
    'If you woke up feeling alone, plan one small moment of contact today: a call at lunch, a chat at work, a message to a friend.',
    'This morning, say good morning to someone, in person or by message. Small contact can shift the whole day.',
    'Starting the day feeling disconnected is hard. Could you go somewhere with people around you today, even briefly?',
    'Before the day gets busy, think of one person you miss. Send them a short message before noon.',
  ],
  afternoon: [
    'The afternoon can feel lonely. Step out for a coffee or a walk where there are other people around.',
    'If you have been alone with your thoughts all day, call or message someone for five minutes.',
    'A short chat this afternoon, even about nothing much, can help you feel part of the world again.',
    'Connection can be small. Reply to that message you have been meaning to answer.',
  ],
  evening: [
    'Evenings can bring loneliness to the surface. Reach out to one person tonight, or plan to see someone this week.',
    'If tonight feels quiet and lonely, try a call instead of a text. Hearing a voice can help.',
    'Write down the names of three people who care about you. Let yourself remember them before you sleep.',
    'Feeling alone tonight does not mean you are alone in the world. Tomorrow, let one person know how you are doing.',
  ],
};

export const support: MessageGroup = {
  dimension: 'supportSystemStrength',
  any: [
    'It sounds like you do not feel well supported right now. That is a hard place to be. Who is one person you could tell how you feel?',
    'Support can come from places you do not expect: a colleague, a neighbour, a helpline, a group of people going through the same thing.',
    'Asking for help is a strength, not a burden. Think of one small, clear thing you could ask someone for today.',
    'If the people around you feel out of reach, you still deserve support. A doctor, a counsellor or a helpline can listen.',
    'Building support takes time. Start with one person you feel safe with, and share a little more than usual.',
    'You do not have to carry everything alone. Write down who you could call if things got harder, and keep the list close.',
    'Some support is practical: a meal, a lift, an hour of help. Let someone give you one of those this week.',
    'Feeling unsupported hurts. Be the kind voice for yourself today, while you look for other kind voices.',
  ],
  morning: [
    'If you start the day feeling unsupported, plan one conversation today with someone you trust.',
    'This morning, think about what kind of help would make today easier. Name it, so you can ask for it.',
    'You deserve people in your corner. Today, reach toward one of them, even with a short message.',
    'A hard morning is easier with company. Is there someone you could walk with, eat with, or call?',
  ],
  afternoon: [
    'If you have been coping alone today, take a moment to tell someone how it is going.',
    'This afternoon, look up one local group or service that could offer support. Just looking is a good first step.',
    'You do not have to wait until things are worse to ask for help. Reach out to someone this afternoon.',
    'Support is something we build, not something we earn. Send one message to someone who feels safe.',
  ],
  evening: [
    'If tonight you feel you have no one, you can still talk to someone: helplines are open in the evening and through the night.',
    'Before bed, think of one person you could lean on a little more this week. Plan when you will reach out.',
    'It is okay to need more support than you have right now. Tomorrow, take one step toward finding it.',
    'Tonight, be gentle with yourself, the way a good friend would be. You deserve that care.',
  ],
};
