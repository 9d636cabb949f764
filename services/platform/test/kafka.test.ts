import pino from 'pino';
import { Writable } from 'node:stream';
import { createKafka, createProducer } from '../src';

function capturingLogger() {
  const lines: Array<{ level: number; msg: string }> = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as { level: number; msg: string });
      done();
    },
  });
  return { log: pino({ level: 'debug' }, stream), lines };
}

it('makes producers with an explicit partitioner, so KafkaJS has nothing to warn about', () => {
  const { log, lines } = capturingLogger();
  const kafka = createKafka('partitioner-test', ['127.0.0.1:1'], log);
  createProducer(kafka);
  expect(lines.filter((line) => /partitioner/i.test(line.msg))).toEqual([]);
  // The implicit choice is what used to warn: the check above would see it.
  kafka.producer();
  expect(lines.filter((line) => /partitioner/i.test(line.msg)).length).toBeGreaterThan(0);
});
