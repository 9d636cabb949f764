/**
 * Dev stack without Docker: the embedded MongoDB-compatible server, Kafka and maildev on loopback.
 *
 *   tsx tools/infra/cli.ts provision|up|down|status [--state DIR]
 *
 * `up` provisions what is missing first. `status` exits 1 unless all three parts are healthy.
 */
import { resolve } from 'node:path';
import {
  DEV_PORTS,
  defaultDevStateDir,
  endpointsFor,
  infraStatus,
  provision,
  provisionedArtifacts,
  readPorts,
  startInfra,
  stopInfra,
  type InfraPorts,
  type PartName,
} from './index';
import { PART_NAMES } from './paths';
import { errorMessage, findRunningPart } from './process';

const usage = 'usage: tsx tools/infra/cli.ts provision|up|down|status [--state DIR]';

function parseArguments(argv: string[]): { command: string; stateDir: string } {
  let command: string | undefined;
  let stateDir = defaultDevStateDir;
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index];
    if (argument === '--state') {
      const value = argv[index + 1];
      if (!value) throw new Error(`--state needs a folder\n${usage}`);
      stateDir = resolve(value);
      index += 1;
    } else if (argument?.startsWith('--state=')) {
      stateDir = resolve(argument.slice('--state='.length));
    } else if (argument === '-h' || argument === '--help') {
      command = 'help';
    } else if (command === undefined && argument !== undefined) {
      command = argument;
    } else {
      throw new Error(`unexpected argument ${argument ?? ''}\n${usage}`);
    }
  }
  if (command === undefined) throw new Error(usage);
  return { command, stateDir };
}

function describeEndpoint(part: PartName, ports: InfraPorts): string {
  const endpoints = endpointsFor(ports);
  switch (part) {
    case 'mongo':
      return endpoints.mongoUrl;
    case 'kafka':
      return `${endpoints.kafkaBrokers.join(',')} (controller 127.0.0.1:${ports.kafkaController})`;
    case 'maildev':
      return `smtp ${endpoints.smtpHost}:${endpoints.smtpPort}, inbox ${endpoints.mailWebUrl}`;
  }
}

function partLine(part: string, status: string, detail: string): string {
  return `${part.padEnd(9)} ${status.padEnd(10)} ${detail}`;
}

function seconds(since: number): string {
  return `${((Date.now() - since) / 1000).toFixed(1)} s`;
}

async function printStatus(stateDir: string): Promise<boolean> {
  const ports = readPorts(stateDir) ?? DEV_PORTS;
  const statuses = await infraStatus(stateDir);
  for (const part of PART_NAMES) {
    const pid = findRunningPart(stateDir, part);
    console.log(
      partLine(part, statuses[part], `${describeEndpoint(part, ports)}${pid === undefined ? '' : `  pid ${pid}`}`),
    );
  }
  return PART_NAMES.every((part) => statuses[part] === 'healthy');
}

async function main(): Promise<number> {
  const { command, stateDir } = parseArguments(process.argv.slice(2));
  switch (command) {
    case 'help':
      console.log(usage);
      return 0;
    case 'provision': {
      const started = Date.now();
      await provision();
      for (const [part, artifact] of Object.entries(provisionedArtifacts()))
        console.log(partLine(part, 'ready', artifact));
      console.log(`provisioned in ${seconds(started)}`);
      return 0;
    }
    case 'up': {
      await provision();
      const started = Date.now();
      await startInfra(stateDir, DEV_PORTS);
      console.log(`state: ${stateDir} (logs in ${stateDir}/logs)`);
      const healthy = await printStatus(stateDir);
      console.log(`up in ${seconds(started)}`);
      return healthy ? 0 : 1;
    }
    case 'down': {
      const wasRunning = PART_NAMES.map((part) => [part, findRunningPart(stateDir, part)] as const);
      const started = Date.now();
      await stopInfra(stateDir);
      for (const [part, pid] of wasRunning) {
        console.log(partLine(part, 'stopped', pid === undefined ? 'was not running' : `was pid ${pid}`));
      }
      console.log(`down in ${seconds(started)}`);
      return 0;
    }
    case 'status':
      console.log(`state: ${stateDir}`);
      return (await printStatus(stateDir)) ? 0 : 1;
    default:
      throw new Error(`unknown command ${command}\n${usage}`);
  }
}

main().then(
  // Exit explicitly: a driver's lingering timer must not keep the CLI alive (the parts are detached).
  (exitCode) => process.exit(exitCode),
  (error: unknown) => {
    console.error(errorMessage(error));
    process.exit(1);
  },
);
