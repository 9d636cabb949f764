/** Emotional & Mental State: stress, confidence, focus and clarity, motivation, anxiety. */
import type { MessageGroup } from './types';

export const stress: MessageGroup = {
  dimension: 'stressLevel',
  any: [
    'Stress is running high right now, and that takes real energy to carry. Drop your shoulders, unclench your jaw, and breathe out slowly twice.',
    'A lot is pressing on you today. You do not have to solve all of it at once. Pick the one thing that matters most and let the rest wait an hour.',
    'High stress can make everything feel urgent. Write down what is on your mind, all of it, so your head does not have to hold it all.',
    'Your body has been on alert. Press your feet into the floor, feel the ground under you, and take three slow breaths before the next task.',
    'It makes sense to feel stretched thin. Is there one thing you could hand off, move to tomorrow, or simply say no to?',
    'Stress is a sign you care about what is in front of you. You can care and still pause. Step away from the screen for two minutes.',
    'When stress is this loud, small things help more than big plans. A glass of cold water, sipped slowly, is a good start.',
    'You are carrying a heavy load today. Put a hand on your chest, notice your breath, and let the next out-breath be a little longer than the last.',
  ],
  morning: [
    'The day is starting with stress already in the room. Before you open your messages, give yourself five quiet minutes with something warm to drink.',
    'A tense morning does not decide the whole day. Choose the one task that would make today feel okay, and start there.',
    'Stress this early can make the day look like a wall. Break it into three parts: this morning, this afternoon, this evening. Just think about the first.',
    'Your morning feels pressured. Open a window, take three deep breaths of fresh air, and then begin.',
  ],
  afternoon: [
    'The afternoon has piled up on you. Stand up, stretch your arms above your head, and take one slow breath before you sit back down.',
    'Stress tends to peak around now. A short walk, even to the end of the corridor and back, can reset your body for the hours ahead.',
    'You have been pushing through a stressful day. Eat something, drink some water, and then look at what is truly left.',
    'Halfway through a hard day is a good moment to check in with yourself. Cross off one thing that no longer needs doing today.',
  ],
  evening: [
    'The day was stressful, and it is over now. Write down the one thing you will pick up tomorrow, then let the list rest until then.',
    'Stress can follow you home. Give it a place to land: a warm shower, dim lights, or a few pages of something gentle.',
    'You made it through a demanding day. Tonight, nothing else needs to be fixed. Let your breathing slow down on its own.',
    'Before bed, try this: breathe in for four counts, out for six. Repeat five times and let the day loosen its grip.',
  ],
};

export const confidence: MessageGroup = {
  dimension: 'confidenceLevel',
  any: [
    'Confidence feels low today, and that is a feeling, not a fact about you. Think of one thing you handled well this week, however small.',
    'Doubting yourself is tiring. Try speaking to yourself the way you would speak to a good friend who felt this way.',
    'You do not need to feel sure to take a step. Do one small thing you already know how to do, and notice that you did it.',
    'Low confidence often forgets the evidence. Write down three things you have done before that once felt hard.',
    'It is okay to feel unsure. Being unsure means you are paying attention. Let that care guide the next small step.',
    'Some days your inner voice is harsh. You can hear it without agreeing with it. What would a kinder voice say right now?',
    'Confidence grows from small, kept promises. Make yourself one tiny promise for today, and keep it.',
    'You have a right to take up space, even on days when you feel small. Sit up, take a breath, and let yourself be here.',
  ],
  morning: [
    'Starting the day unsure of yourself is hard. Choose one task you can finish before lunch, and let that be your proof.',
    'This morning, try standing tall for one minute before you begin. It will not fix everything, but it can change how you meet the day.',
    'A shaky start does not mean a shaky day. Remind yourself of one thing you are good at before you leave the house.',
    'If today feels bigger than you, make your first goal very small: one email, one call, one page.',
  ],
  afternoon: [
    'Your confidence has dipped this afternoon. Look back at what you have already done today and give yourself honest credit for it.',
    'If something knocked you this afternoon, it does not undo everything else. Take a breath and name one thing that went fine.',
    'Self-doubt often grows when we are tired. Have a snack and a glass of water before you judge how you are doing.',
    'Halfway through the day, you are still here and still trying. That counts for more than it feels like.',
  ],
  evening: [
    'Tonight, write down one moment from today when you did better than you expected. Keep the list going on hard days.',
    'The day is done, and you do not have to review every moment of it. Let your mind rest on one kind thing you did.',
    'Feeling unsure tonight is okay. Sleep often makes things look more manageable. Be gentle with yourself until then.',
    'Before bed, say one thing you appreciate about yourself, out loud or on paper. It may feel odd, and that is fine.',
  ],
};

export const focus: MessageGroup = {
  dimension: 'focusClarity',
  any: [
    'Your mind feels foggy, and that is frustrating. Close the extra tabs, put your phone in another room, and give one thing ten minutes.',
    'When focus is low, lists help. Write the next three tasks on paper and only look at the first one.',
    'A scattered mind is often a tired or full one. Take five slow breaths and let your thoughts settle like dust in still air.',
    'It is okay if deep focus is out of reach today. Choose simpler tasks and save the big thinking for a clearer hour.',
    'Try a short timer: fifteen minutes on one thing, then a short break. Small blocks are easier to start.',
    'Clarity sometimes comes from moving. A short walk can untangle thoughts that sitting still cannot.',
    'If your thoughts keep jumping, write each one down as it comes. Once it is on paper, your mind can let it go.',
    'Foggy days happen. Drink some water, get some daylight on your face, and lower the bar for what today needs.',
  ],
  morning: [
    'Your head feels cloudy this morning. Before anything else, drink a full glass of water and step into some daylight.',
    'A slow-starting mind needs a gentle first task. Pick something easy to warm up, then move to the harder work.',
    'This morning, write one sentence about what today is for. Let it guide you when your attention drifts.',
    'If focus is hard this morning, skip the news and messages for the first half hour. Give your mind a quiet start.',
  ],
  afternoon: [
    'The afternoon slump is real, and your focus has dipped with it. Stand, stretch, and look at something far away for a minute.',
    'Your concentration is running low. Switch to a task that needs less thought for the next half hour.',
    'A short break now can save the rest of the afternoon. Step outside, or just away from your desk, for five minutes.',
    'If your mind keeps wandering this afternoon, let it wander on purpose for two minutes, then gently bring it back.',
  ],
  evening: [
    'Your mind is tired after the day. Tonight is not for solving things. Let it rest with something light and familiar.',
    'If thoughts are racing this evening, write them down and close the notebook. They will still be there tomorrow.',
    'Clarity often returns after sleep. Put screens away a little earlier tonight and give your mind a real rest.',
    'You do not need to think clearly tonight. A warm drink and some quiet are enough.',
  ],
};

export const motivation: MessageGroup = {
  dimension: 'motivationLevel',
  any: [
    'Motivation is low today, and that is okay. You do not have to want to do something to start it. Try just two minutes.',
    'When drive runs out, shrink the task. Not "clean the kitchen", just "wash one cup".',
    'Low motivation is often a sign you need rest, not a push. Ask yourself honestly which one you need right now.',
    'It is hard to care about tasks on a flat day. Pick the one that would make tomorrow a little easier, and do only that.',
    'Motivation often follows action, not the other way round. Put on your shoes, open the document, and see what happens.',
    'Feeling stuck says nothing bad about you. Energy comes and goes. Be patient with yourself while it returns.',
    'Link a small task to something you enjoy: a favourite song while you tidy, a warm drink while you reply to one message.',
    'Remember why one of your goals matters to you. Write that reason down where you will see it today.',
  ],
  morning: [
    'Getting going is hard this morning. Set a small first goal, like getting dressed and opening a window, and let that count.',
    'If the day ahead feels flat, plan one thing to look forward to, even something small like a walk at lunch.',
    'Mornings without drive happen. Start with the easiest task on your list and let the momentum build slowly.',
    'This morning, pick one thing you want to have done by noon. Just one. Everything else is extra.',
  ],
  afternoon: [
    'Your energy has dropped this afternoon. Move your body for five minutes, then try one small task again.',
    'The afternoon can feel long when motivation is low. Break what is left into small pieces and tick each one off.',
    'If you have done less than you hoped today, that is okay. Choose one thing to finish before the day ends.',
    'A change of place can help. Move to another room or a different seat and start fresh on one task.',
  ],
  evening: [
    'Motivation was hard to find today. That is not a failure. Rest tonight, and tomorrow can be a new start.',
    'This evening, set out one thing for tomorrow morning, like your clothes or your notebook. It makes starting easier.',
    'You do not need to make up for a slow day tonight. Let the evening be for rest.',
    'Before bed, write down one small thing you did today. Even slow days have something in them.',
  ],
};

export const anxiety: MessageGroup = {
  dimension: 'anxietyLevel',
  any: [
    'Anxiety is loud right now, and your body is trying to protect you. Breathe in for four counts, hold for four, and out for six.',
    'Name five things you can see, four you can hear, and three you can touch. It brings your mind back to the room you are in.',
    'Worry often talks about what might happen. Right now, in this moment, you are here and you are breathing.',
    'Anxious thoughts can feel like facts. Write one down, then ask: how sure am I this will happen? What would I tell a friend?',
    'Hold something cold, like a glass of water or an ice cube. The change in feeling can help calm a racing heart.',
    'You do not have to fight the anxiety. Notice it, let it be there, and let your breath slow down beside it.',
    'Anxiety makes everything feel urgent. Most things can wait ten minutes. Give yourself those ten minutes to settle.',
    'Put both feet flat on the floor and press down gently. Feel the ground holding you. You are steady here.',
  ],
  morning: [
    'Waking up anxious is hard. Before you look at your phone, take three slow breaths and notice the room around you.',
    'If the day ahead is making you anxious, plan only the first hour. The rest can be worked out later.',
    'This morning, eat something, even if it is small. Anxiety can feel worse on an empty stomach.',
    'Anxious mornings pass. Let yourself move slowly, and keep your first task simple.',
  ],
  afternoon: [
    'Anxiety has built up this afternoon. Step away for five minutes, breathe out slowly, and let your shoulders drop.',
    'If something this afternoon set off your worry, write down what happened and what you actually know for sure.',
    'Too much caffeine can feed anxiety. Swap the next coffee for water or a caffeine-free tea.',
    'Your nervous system needs a reset. A short walk, even around the room, can help your body burn off the tension.',
  ],
  evening: [
    'Anxious thoughts often grow at night. Write them on paper before bed, and tell yourself you will look at them in daylight.',
    'Tonight, try breathing out for longer than you breathe in. It tells your body it is safe to rest.',
    'If worry keeps you awake, get up for a few minutes and do something quiet in dim light. Then try sleep again.',
    'The day is over. Whatever worried you can be picked up tomorrow. For now, let yourself be warm and still.',
  ],
};
