/** Daily Context: current challenge level, gratitude levels, urgency of need. */
import type { MessageGroup } from './types';

export const challenge: MessageGroup = {
  dimension: 'currentChallengeLevel',
  any: [
    'You are facing something hard right now. It is okay to feel the weight of it. Take one slow breath before you decide anything.',
    'Big challenges are easier in small pieces. Write down the very next step, and only that step.',
    'Hard times ask a lot of us. Make sure you are eating, drinking water and resting, even if only a little.',
    'You have faced difficult things before and found a way through. Think of one of those times now.',
    'Not every challenge can be solved today. Some only need to be carried a little further. That is enough.',
    'Talk it through with someone. Saying a problem out loud often makes it smaller and clearer.',
    'Ask yourself: what part of this is in my control? Put your energy there, and let the rest be.',
    'A hard situation does not say anything bad about you. It is just hard. Be gentle with yourself.',
  ],
  morning: [
    'Today looks demanding. Before it starts, take five quiet minutes and decide on the one thing that matters most.',
    'If today holds something difficult, plan a small reward for afterwards, something to look forward to.',
    'A challenging day ahead calls for a steady start. Eat breakfast, breathe, and take it one hour at a time.',
    'You do not have to feel ready to begin. Start with the first small step and let the rest follow.',
  ],
  afternoon: [
    'The challenge has not eased this afternoon. Step back for five minutes, then return to it with fresh eyes.',
    'If things feel like too much this afternoon, pick one piece to finish and let the rest wait.',
    'A hard afternoon is a good time to ask for help. Who could share a little of this load?',
    'Pause and notice what you have already handled today. You are doing more than you think.',
  ],
  evening: [
    'You carried something hard today. Tonight, let it rest. Write down where you will pick it up tomorrow.',
    'Difficult days deserve gentle evenings. Do something small and kind for yourself before bed.',
    'If the challenge is on your mind tonight, talk to someone about it, or write it down and put it aside.',
    'Whatever is still unsolved can wait for morning. You have done enough for today.',
  ],
};

export const gratitude: MessageGroup = {
  dimension: 'gratitudeLevels',
  any: [
    'It is hard to feel thankful on some days, and that is okay. Try noticing just one small thing that is fine right now.',
    'Gratitude does not mean ignoring what is hard. It can sit beside it. What is one thing that went okay today?',
    'Look around you for one thing that makes life a little easier: warm water, a comfortable chair, a kind message.',
    'When nothing feels good, notice something neutral that is still there: your breath, the light, the ground beneath you.',
    'Think of someone who has helped you, even long ago. You could thank them today with a short message.',
    'Small pleasures count. A good cup of tea, a song you like, the sun on your face. Look for one today.',
    'Write down three ordinary things you would miss if they were gone. It can shift how the day feels.',
    'It is okay if gratitude feels forced. You can practise it gently, without pretending everything is good.',
  ],
  morning: [
    'This morning, name one thing you are looking forward to today, even something small like lunch.',
    'Start the day by noticing one good thing around you: light through a window, a warm drink, a quiet moment.',
    'Before the day gets busy, think of one person you are glad to have in your life.',
    'A hard morning can still hold something good. Look for one thing, and let yourself notice it.',
  ],
  afternoon: [
    'Pause this afternoon and notice one thing that has gone right today, however small.',
    'Send a short thank-you to someone today. It often lifts both of you.',
    'If the afternoon feels grey, look for one small comfort you can give yourself right now.',
    'Take a moment to notice something you usually take for granted. It is there for you today.',
  ],
  evening: [
    'Before bed, write down one good moment from today. Even a small one is worth keeping.',
    'Tonight, think of one thing your body did for you today. It carried you through.',
    'If today was hard, look for one moment of kindness in it, given or received.',
    'End the day by noticing one thing you have now that you once hoped for.',
  ],
};

export const urgency: MessageGroup = {
  dimension: 'urgencyOfNeed',
  any: [
    'It sounds like you need support soon. Please reach out to someone you trust today and tell them how you feel.',
    'When the need feels urgent, you do not have to wait. A doctor, a helpline or a trusted friend can help you right now.',
    'Asking for help is a brave and sensible step. Think of one person or service you could contact in the next hour.',
    'You matter, and what you are feeling matters. Let someone know you are struggling so they can help.',
    'If things feel too much, slow everything down. Breathe out slowly, sit somewhere safe, and reach out to someone.',
    'Strong feelings can be overwhelming, and they do pass. While they are here, stay close to people who care about you.',
    'You do not have to explain it perfectly to ask for help. "I am not okay" is enough to start with.',
    'Right now, focus on getting through the next hour. Drink water, stay somewhere safe, and contact someone.',
  ],
  morning: [
    'If you are starting the day in real need, make contacting someone the first thing you do this morning.',
    'This morning, let one person know that you are having a hard time. You do not have to carry it alone.',
    'Your need for support is real. Make a plan this morning: who will you talk to today, and when?',
    'Before the day gets busy, reach out for help. A call or a message is enough to begin.',
  ],
  afternoon: [
    'If the need for support has grown this afternoon, do not wait until evening. Reach out now.',
    'Take a break from everything else and contact someone who can help, a friend, a doctor or a helpline.',
    'You deserve support today, not later. Send one message to someone you trust this afternoon.',
    'When need feels urgent, small plans help: who to call, where to go, what to say. Write them down now.',
  ],
  evening: [
    'If you need help tonight, helplines are open through the night. You can reach someone right now.',
    'Please do not spend tonight alone with this. Call or message someone who can be there for you.',
    'Tonight, stay somewhere safe and comfortable, and let someone know how you are feeling.',
    'Nights can feel long when you are struggling. Reach out to someone now, and rest when you can.',
  ],
};
