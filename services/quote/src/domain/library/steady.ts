/** For a check-in with nothing on the hard side: a quiet celebration that fits the time of day. */
import type { SteadyMessages } from './types';

export const steady: SteadyMessages = {
  morning: [
    'You are starting the day on steady ground. Take a moment to notice how that feels, so you can find your way back to it.',
    'A good morning is worth enjoying. Before you dive in, spend one minute with a warm drink and no screen.',
    'You feel balanced this morning. Use some of that energy on the task you have been putting off.',
    'Things feel steady today. Share a little of it: send a kind word to someone who might need one.',
    'This morning looks bright. Pick one thing to enjoy on purpose today, and give it your full attention.',
    'You are in a good place this morning. Write down what helped you get here, so you can use it on harder days.',
    'A calm start is a gift. Move through the first hour slowly and let it set the pace for the day.',
    'Your ratings look settled and warm. Carry that into the day, and be kind to yourself if it shifts.',
    'Good mornings make a good base. Use this one to plan something small that you will look forward to.',
    'You are feeling well today. Step outside for a few minutes and let the day begin with fresh air.',
  ],
  afternoon: [
    'Your afternoon is going well. Pause for a moment and notice what is working today.',
    'Things feel steady this afternoon. A short walk could turn a good day into a great one.',
    'You are holding up well today. Take a moment to thank someone who has helped along the way.',
    'A balanced afternoon is worth noticing. Write one line about what made today feel good.',
    'You are in a good rhythm. Use it for one task that will make tomorrow easier.',
    'Steady days are quiet wins. Give yourself credit for the choices that led here.',
    'Your mood is in a good place. Share it: a call, a message, or a smile to someone nearby.',
    'This afternoon looks bright. Take a proper break anyway; good days need rest too.',
    'You are doing well today. Let yourself enjoy that without looking for what might go wrong.',
    'A calm afternoon is a chance to do something just for you. Even ten minutes counts.',
  ],
  evening: [
    'Today went well for you. Before bed, write down one moment you want to remember.',
    'You are ending the day on steady ground. Let yourself rest well; you have earned an easy evening.',
    'A good day deserves a gentle close. Put the phone away early and enjoy the quiet.',
    'You feel settled tonight. Think about what helped today, and how you might bring some of it into tomorrow.',
    'This evening, notice the good things the day held, and let them be the last thing on your mind.',
    'Your ratings look warm tonight. Share one good thing from today with someone close to you.',
    'A steady day is something to be glad about. Let tonight be slow and kind.',
    'You have had a good day. Rest now, so you can meet tomorrow with the same calm.',
    'Tonight, thank yourself for the small choices that made today feel good.',
    'Things are in a good place this evening. Enjoy it, without needing tomorrow to be the same.',
  ],
};
