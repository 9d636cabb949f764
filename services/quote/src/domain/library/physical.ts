/** Physical Wellbeing: sleep quality, physical comfort. */
import type { MessageGroup } from './types';

export const sleep: MessageGroup = {
  dimension: 'sleepQuality',
  any: [
    'Poor sleep makes everything harder, from mood to focus. Be extra gentle with yourself today; you are running on less.',
    'When you are tired, lower the bar. Do the essentials and let the rest wait for a rested day.',
    'A short rest, even ten minutes with your eyes closed, can help after a bad night.',
    'Tiredness can make worries feel bigger. Remember that some of what you feel today is the missing sleep talking.',
    'Daylight helps your body find its rhythm. Try to spend a few minutes outside today.',
    'Go easy on caffeine after lunch. It can make tonight harder, even when it helps right now.',
    'Your body is asking for rest. Where can you find a quiet moment today to simply sit and breathe?',
    'One bad night does not make a pattern. Keep your routine simple today and give tonight a fair chance.',
  ],
  morning: [
    'A rough night makes for a slow morning. Drink water, open the curtains, and start with the easiest task.',
    'You did not sleep well. Let this morning be gentle: a simple breakfast, some daylight, and no rush if you can help it.',
    'Tired mornings are hard. Try a short walk outside before you start work; light helps wake the body.',
    'If you are tired this morning, plan a calmer day where you can. Save the hard decisions for when you are rested.',
  ],
  afternoon: [
    'The afternoon is often when a bad night catches up with you. A short break and a glass of water can help.',
    'If you are flagging this afternoon, a short walk will do more than another coffee.',
    'Tiredness peaks around now. Swap a hard task for an easier one until the dip passes.',
    'A ten-minute rest this afternoon is a way of looking after yourself, and it can carry you to the evening.',
  ],
  evening: [
    'Tonight, give yourself a wind-down: dim the lights, put the phone away, and do something slow for half an hour.',
    'A warm shower and a cool bedroom can help your body get ready to sleep.',
    'If your mind is busy at bedtime, write down what is on it first, then close the notebook.',
    'Try going to bed a little earlier tonight. Your body will thank you tomorrow.',
  ],
};

export const comfort: MessageGroup = {
  dimension: 'physicalComfort',
  any: [
    'Your body is uncomfortable today, and that wears on the mind too. Be patient with yourself while it passes.',
    'Pain and discomfort take energy. It is okay to do less today and to rest when you can.',
    'Check in with your body: where do you feel tense? Gently move or stretch that part for a minute.',
    'A warm drink, a change of position, a soft layer: small comforts can help when your body is not at ease.',
    'If your discomfort keeps coming back, it may be worth talking to a doctor or pharmacist about it.',
    'Drink some water and eat something nourishing. Simple care for the body often helps the mind too.',
    'Try a gentle stretch: roll your shoulders back slowly five times and turn your head gently side to side.',
    'Feeling unwell is hard. You do not have to push through everything today. Rest is allowed.',
  ],
  morning: [
    'Your body is stiff or sore this morning. A few slow stretches before you start can ease you into the day.',
    'If you feel unwell this morning, plan a lighter day where you can, and tell someone if you need to.',
    'Start with care for your body: water, a simple breakfast, and comfortable clothes.',
    'A gentle morning helps a sore body. Move slowly and give yourself extra time.',
  ],
  afternoon: [
    'Sitting for long can add to discomfort. Stand up, stretch, and walk for a few minutes.',
    'If your body aches this afternoon, check your posture and give your neck and shoulders a rest.',
    'Take a short break to drink water and move a little. Small changes help the body reset.',
    'Discomfort can drain your patience. Be kind to yourself and to others this afternoon.',
  ],
  evening: [
    'Tonight, give your body some comfort: a warm bath, a soft blanket, or a gentle stretch before bed.',
    'If you are sore this evening, rest and keep things simple. Your body is asking for care.',
    'Before bed, lie down and slowly relax each part of your body, from your toes to your head.',
    'The day is done. Let your body rest now, as fully as it can.',
  ],
};
