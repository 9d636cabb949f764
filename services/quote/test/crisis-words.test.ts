/**
 * The crisis-word detector over a hand-labelled set of check-in notes (crisis-sentences.tsv). The rules were
 * tuned on the training part only; the held-out part measures how they do on notes they were not tuned on.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { normaliseWords, recognisesCrisisInWords } from '../src/domain/crisis-words';

const labels = ['crisis', 'not-crisis', 'tricky'] as const;
const splits = ['training', 'held-out'] as const;

interface Labelled {
  label: (typeof labels)[number];
  split: (typeof splits)[number];
  sentence: string;
}

const [header, ...rows] = readFileSync(join(__dirname, 'crisis-sentences.tsv'), 'utf8')
  .split('\n')
  .filter((line) => line !== '' && !line.startsWith('#'));
const labelled: Labelled[] = rows.map((row) => {
  const [label, split, sentence, ...rest] = row.split('\t');
  if (rest.length > 0 || !sentence) throw new Error(`not three columns: ${row}`);
  if (!(labels as readonly string[]).includes(label!)) throw new Error(`unknown label: ${row}`);
  if (!(splits as readonly string[]).includes(split!)) throw new Error(`unknown split: ${row}`);
  return { label, split, sentence } as Labelled;
});

const of = (split: Labelled['split'], ...wanted: Array<Labelled['label']>) =>
  labelled.filter((row) => row.split === split && wanted.includes(row.label)).map((row) => row.sentence);
const flagged = (sentences: string[]) => sentences.filter((sentence) => recognisesCrisisInWords(sentence));
const share = (part: string[], whole: string[]) => part.length / whole.length;

describe('the labelled set', () => {
  it('holds at least 300 distinct sentences; every fifth of each label, in file order, is held out', () => {
    expect(header).toBe('label\tsplit\tsentence');
    expect(labelled.length).toBeGreaterThanOrEqual(300);
    expect(new Set(labelled.map((row) => row.sentence)).size).toBe(labelled.length);
    for (const label of labels) {
      const rowsOfLabel = labelled.filter((row) => row.label === label);
      expect(rowsOfLabel.length).toBeGreaterThanOrEqual(60);
      rowsOfLabel.forEach((row, index) => expect(row.split).toBe((index + 1) % 5 === 0 ? 'held-out' : 'training'));
    }
  });
});

describe('on the training part', () => {
  it('recognises every crisis sentence', () => {
    const crisis = of('training', 'crisis');
    expect(crisis.filter((sentence) => !recognisesCrisisInWords(sentence))).toEqual([]);
  });

  it('flags no idiom, negation, quotation or recovered past-speech sentence', () => {
    expect(flagged(of('training', 'tricky'))).toEqual([]);
  });

  it('flags at most 5 % of the other not-crisis sentences', () => {
    const ordinary = of('training', 'not-crisis');
    expect(share(flagged(ordinary), ordinary)).toBeLessThanOrEqual(0.05);
  });
});

describe('on the held-out part', () => {
  it('recognises at least 95 % of crisis sentences', () => {
    const crisis = of('held-out', 'crisis');
    expect(share(flagged(crisis), crisis)).toBeGreaterThanOrEqual(0.95);
  });

  it('flags at most 10 % of the rest', () => {
    const rest = of('held-out', 'not-crisis', 'tricky');
    expect(share(flagged(rest), rest)).toBeLessThanOrEqual(0.1);
  });
});

describe('recognisesCrisisInWords', () => {
  it('folds case, apostrophes, drawn-out letters, digits for letters, misspellings and slang', () => {
    expect(normaliseWords('I’m  goin to KILLLL mys3lf')).toBe('im goin to kil myself');
    for (const note of ['KMS', 'i wnat to diiiie', 'su1cidal', 'feeling sucidal', 'wanna unalive myself']) {
      expect(recognisesCrisisInWords(note)).toBe(true);
    }
  });

  it('finds the signal in the middle of a long note', () => {
    const note = `${'Lunch with my brother, a walk, some emails. '.repeat(10)}I want to end my life. ${'Dinner was nice. '.repeat(10)}`;
    expect(recognisesCrisisInWords(note)).toBe(true);
  });

  it('counts a denial as a signal, but not a thought the person says is over', () => {
    expect(recognisesCrisisInWords("I'm not going to kill myself")).toBe(true);
    expect(recognisesCrisisInWords("I don't want to die anymore, I have a good team around me")).toBe(false);
  });

  it('counts a quotation the person speaks, not one that someone or something else does', () => {
    expect(recognisesCrisisInWords('"I want to end it all" is what I said to the GP')).toBe(true);
    expect(recognisesCrisisInWords('"I want to end it all," she said, and then she laughed')).toBe(false);
    expect(recognisesCrisisInWords('the poem ends with "I want to end it all"')).toBe(false);
  });

  it('answers no for empty notes', () => {
    expect(recognisesCrisisInWords(null)).toBe(false);
    expect(recognisesCrisisInWords('   ')).toBe(false);
  });
});
