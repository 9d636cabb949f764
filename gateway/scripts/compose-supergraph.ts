/**
 * Writes gateway/supergraph.graphql from the subgraph schemas.
 * `--check` only compares and exits 1 when the checked-in file is out of date.
 */
import { writeFileSync } from 'node:fs';
import { composeSupergraph, readSupergraph, supergraphPath } from '../src/supergraph';

const composed = composeSupergraph();
if (process.argv.includes('--check')) {
  if (readSupergraph() !== composed) {
    process.stderr.write('gateway/supergraph.graphql is out of date: run `make supergraph` and commit it.\n');
    process.exit(1);
  }
  process.stdout.write('supergraph is up to date\n');
} else {
  writeFileSync(supergraphPath, composed);
  process.stdout.write(`wrote ${supergraphPath}\n`);
}
