import type { Test } from '@jest/test-result';
import Sequencer from '@jest/test-sequencer';

declare class SpreadBrowserFiles extends Sequencer {
  sort(tests: Array<Test>): Array<Test>;
}
export = SpreadBrowserFiles;
