/** Purpose & Direction: sense of purpose, progress toward goals, hope for future. */
import type { MessageGroup } from './types';

export const purpose: MessageGroup = {
  dimension: 'senseOfPurpose',
  any: [
    'Feeling without direction is unsettling. Purpose does not have to be big. What is one thing today that you care about, even a little?',
    'Meaning often hides in small things: helping someone, making something, learning something. Try one of those today.',
    'It is okay not to know where you are heading. For now, ask what would make this week a little better.',
    'When purpose feels far away, look at your values instead. Write down one thing you want to stand for.',
    'A sense of purpose can return through doing. Do one kind thing for someone else today and notice how it feels.',
    'You are more than what you achieve. Your worth is not on hold while you figure out your direction.',
    'Think back to a time you felt your life had meaning. What were you doing? Is there a small piece of that you could do again?',
    'Feeling lost is part of changing. It can mean an old path no longer fits. Be patient while a new one forms.',
  ],
  morning: [
    'This morning, write one sentence about what you want today to be about. Not a task, a reason.',
    'If the day ahead feels pointless, choose one thing that would matter to someone else, and start there.',
    'Purpose can start small this morning: make your bed, make a good breakfast, make one call that matters.',
    'Begin the day by asking: what would I be glad I did by tonight?',
  ],
  afternoon: [
    'If your afternoon feels empty of meaning, pause and help someone with something small. It can bring you back.',
    'Take a short break to remember why you do the work you do, or what you hope it leads to.',
    'Purpose can feel far away in the middle of routine. Step outside for five minutes and look at something bigger than the screen.',
    'This afternoon, do one thing that reflects who you want to be, however small.',
  ],
  evening: [
    'Tonight, write down one moment today that felt worthwhile. Those moments add up to a direction.',
    'If today felt meaningless, that is a hard feeling to carry to bed. Let tomorrow hold the question; tonight, just rest.',
    'Think of one person you helped, or who helped you, today. Connection is a kind of purpose.',
    'Before sleep, ask yourself what you would like more of in your life. Let the answer come slowly.',
  ],
};

export const progress: MessageGroup = {
  dimension: 'progressTowardGoals',
  any: [
    'It feels like you are not moving forward, and that is discouraging. Progress is often slower than it feels. Look back a month, not a day.',
    'When a goal feels stuck, make the next step smaller. What is the very next thing, the one you could do in ten minutes?',
    'Setbacks are part of every path. They do not erase the ground you have already covered.',
    'Try writing down what you have done toward your goal so far. Seeing it can remind you that you are not starting from zero.',
    'If a goal no longer fits your life, it is okay to change it. Adjusting is not giving up.',
    'Progress is not always visible. Rest, learning and waiting can all be part of moving forward.',
    'Pick one goal and give it fifteen minutes today. Just fifteen. Small, steady steps go a long way.',
    'You do not have to measure yourself against anyone else. Compare yourself only with where you were.',
  ],
  morning: [
    'This morning, choose one small step toward a goal and put it first, before the day fills up.',
    'If you feel behind, plan a small win for today. Something you can finish and tick off by lunch.',
    'Start the day with your goal in mind: write it at the top of your list, with one next step beneath it.',
    'Progress starts again every morning. Yesterday does not decide what today can hold.',
  ],
  afternoon: [
    'If the day has not gone to plan, there is still time for one small step. Pick the easiest one.',
    'Pause this afternoon and look at what you have done so far today. Some of it counts toward your goals.',
    'When progress feels slow, change the goal for today from "finish" to "move forward a little".',
    'This afternoon, clear one small obstacle out of your way. Sometimes that is the real progress.',
  ],
  evening: [
    'Tonight, write down one thing you did today that moved you forward, even by a little.',
    'If today did not bring the progress you hoped for, let it go for tonight. Tomorrow brings another chance.',
    'Before bed, plan one small step for tomorrow. Knowing where to start makes the morning easier.',
    'You tried today. Trying is part of progress, even when the results are not visible yet.',
  ],
};

export const hope: MessageGroup = {
  dimension: 'hopeForFuture',
  any: [
    'Hope feels hard to reach right now. That is a heavy feeling, and you do not have to carry it alone. Tell someone you trust how things are.',
    'When the future looks dark, focus on the next few hours. What would make them a little easier?',
    'Feelings change, even the ones that seem permanent. Many people who felt this way found that things got better.',
    'Hope can start very small: a good meal, a song you love, a walk in daylight. Let yourself have one of those today.',
    'You do not need to feel hopeful to keep going. You only need to take the next small step.',
    'If the future feels empty, think of one thing you would like to see again: a place, a person, a season.',
    'Low hope is a sign that you need care and support. A doctor, a counsellor or a helpline can help you carry this.',
    'Write down one reason to get through today. It can be small. It still matters.',
  ],
  morning: [
    'If you woke up without much hope, keep today simple. Get up, eat something, and step outside for a few minutes.',
    'This morning, plan one thing to look forward to later today, however small.',
    'Hope often returns in small moments. Notice one good thing this morning: light, warmth, a kind word.',
    'Start the day gently. You do not have to see the whole future, only the next hour.',
  ],
  afternoon: [
    'If hope has faded this afternoon, reach out to someone and let them know how you feel.',
    'Take a short break and do something that usually brings you a little comfort.',
    'This afternoon, write down one thing you would like to be different a month from now. It gives hope a shape.',
    'Feeling hopeless is a hard place to be. Be kind to yourself and talk to someone you trust today.',
  ],
  evening: [
    'Nights can make the future look darker than it is. Try to rest, and look at things again in the morning light.',
    'Tonight, remember one time things got better when you did not expect them to.',
    'If hope feels far away tonight, please reach out to someone. Helplines are open through the night.',
    'Before bed, be gentle with yourself. Tomorrow is a new day, and you do not have to face it alone.',
  ],
};
