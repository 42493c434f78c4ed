import { stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import {
  archiveUrlOf,
  ANOTHER_INSTALL,
  describeSelfTest,
  findCatalogModel,
  installModel,
  isDiarizationModelEntry,
  listInstalledDiarizationModels,
  locateDiarizationModels,
  isSha256Hex,
  listInstalledModels,
  MODEL_CATALOG,
  modelFixCommand,
  modelsLockPath,
  probeReleaseHost,
  readModelsLockForListing,
  RECOMMENDED_CPU_MODEL,
  removeModel,
  type CatalogModel,
  type InstalledModelReport,
  type InstallModelOptions,
  type InstallModelResult,
  type ModelSource,
} from '@transcribe/core';
import { parseEnv, type Env } from '../env.ts';
import {
  diarizationModelOfFile,
  diarizationProbeUrl,
  downloadDiarization,
  firstStartDiarization,
  installDiarizationFiles,
  isDiarizationName,
  listDiarization,
  printDiarizationCatalog,
  removeDiarization,
  sayRemoved,
} from './models-diarization.ts';
import { megabytes, progressReporter } from './report-download-progress.ts';
import { unreachableHostLine } from '../select-engine.ts';
import { EXIT } from './create-cli.ts';

const USAGE = `Usage:
  npm run models -- list                      installed models: size, hash, self-test; pins of models.lock.json
  npm run models -- catalog                   the models that can be downloaded
  npm run models -- download NAME [--sha256 HEX] [--mirror URL] [--force] [--retest]
                                              fetch NAME from its official release (resumes), check it
                                              against models.lock.json, unpack, self-test, activate
  npm run models -- download diarization | SEGMENTATION [EMBEDDING] [--mirror URL] [--force]
                                              the same for neural diarization models, self-tested as a
                                              pair on a two-speaker clip (2 speakers, DER <= 0.20);
                                              \`diarization\` is the recommended pair
  npm run models -- install FILE.tar.bz2|FILE.onnx|DIR [FILE|DIR] [--name NAME] [--sha256 HEX] [--force] [--retest]
                                              the same from local files or folders (offline)
  npm run models -- remove NAME [--unpin]     delete an installed model (--unpin also drops its pin)
  npm run models -- first-start [--mirror URL] [--skip-recognition]
                                              what the service runs in the background on a start
                                              without a model: probe the release host (5 s), then
                                              install the recommended CPU model and diarization pair
Options: --models-dir DIR (default: MODELS_DIR, else ./models); -h, --help: this text
Exit codes: 0 done; 1 the work failed; 2 usage mistake; 3 no such model, file or folder
  --sha256 HEX  the archive's SHA-256, 64 hex digits (as sha256sum prints it)
  --force  activate a model whose self-test failed (no text, or WER over 0.6 on the test clip; a
           diarization pair: not 2 speakers, or DER over 0.20)
  --retest run the self-test again although it failed before on the same archive or files
           (a failure is remembered and reported without running it again)`;

function languagesOf(model: CatalogModel): string {
  return model.languages.length > 6 ? `${model.languages.length} languages` : model.languages.join(',');
}

function describeInstall(report: InstalledModelReport): string {
  const record = report.install;
  if (!record) return 'installed by hand (no hash, no self-test)';
  const hash = record.sha256 ? `sha256 ${record.sha256}` : `files-sha256 ${record.contentSha256}`;
  const test = record.selfTest;
  // `.install.json` written before installs had a self-test holds only URL, hash and time.
  if (!test) return `${hash}  no self-test (installed by an earlier version; reinstall to run it)`;
  const wer = test.wer === null ? 'no result' : `WER ${test.wer.toFixed(3)}, RTF ${test.realTimeFactor?.toFixed(3)}`;
  const verdict = test.passed ? `self-test passed (${wer})` : `self-test FAILED (${test.reason}; ${wer}), activated with --force`;
  return `${hash}  ${verdict}`;
}

async function list(modelsDir: string): Promise<void> {
  const { models, unknown } = await listInstalledModels(modelsDir);
  const { lock, damaged } = await readModelsLockForListing(modelsDir);
  console.log(`MODELS_DIR ${modelsDir}`);
  if (models.length === 0)
    console.log('No sherpa-onnx model is installed. See `npm run models -- catalog`, then `npm run models -- download NAME`.');
  for (const report of models) {
    console.log(
      `${report.status.padEnd(6)}  ${report.model.name}  ${report.model.family}  ${languagesOf(report.model)}  ${megabytes(report.bytes)}  ${describeInstall(report)}`,
    );
    for (const problem of report.problems) console.log(`        ${problem}`);
    if (report.status === 'broken') console.log(`        fix: ${modelFixCommand(report.model.name)}`);
  }
  const diarization = await listDiarization(modelsDir);
  for (const name of unknown.filter((entry) => !isDiarizationModelEntry(entry)))
    console.log(`other   ${name}  (not in the catalog; ignored)`);
  const installed = new Set([...models.map((report) => report.model.name), ...diarization]);
  for (const [name, pin] of Object.entries(lock.models)) {
    if (!installed.has(name))
      console.log(
        `pinned  ${name}  not installed  ${megabytes(pin.bytes)}  sha256 ${pin.sha256 ?? `(folder) files-sha256 ${pin.contentSha256}`}`,
      );
  }
  // What could be read is listed above; each damaged part of the lock file, with its repair, here.
  for (const line of damaged) console.error(`models: ${line}`);
  if (damaged.length > 0) process.exitCode = 1;
}

/** What each column of `catalog` means, printed above it. */
const CATALOG_LEGEND = `Columns: STATE (ready or broken when installed in MODELS_DIR, - when not), NAME (what download takes),
FAMILY (the model architecture), SIZE (millions of parameters), LANGUAGES (codes, or how many),
HASH (how the archive is checked: a published SHA-256, or pinned in models.lock.json on first install).
Under each model: what it is good for. Install one with \`npm run models -- download NAME\`.`;

async function catalog(modelsDir: string): Promise<void> {
  const installed = new Map((await listInstalledModels(modelsDir)).models.map((report) => [report.model.name, report.status]));
  const { lock, damaged } = await readModelsLockForListing(modelsDir);
  console.log(CATALOG_LEGEND);
  console.log('STATE   NAME  FAMILY  SIZE  LANGUAGES  HASH');
  for (const model of MODEL_CATALOG) {
    const state = installed.get(model.name) ?? '-';
    const hash = model.sha256
      ? `sha256 ${model.sha256} (published)`
      : lock.models[model.name]
        ? 'pinned in models.lock.json'
        : 'pinned on first install';
    const recommended = model.name === RECOMMENDED_CPU_MODEL ? '  (recommended for CPU)' : '';
    console.log(
      `${state.padEnd(6)}  ${model.name}  ${model.family}  ${model.parametersMillions}M  ${languagesOf(model)}  ${hash}${recommended}`,
    );
    console.log(`        ${model.description}`);
  }
  const diarization = new Set((await listInstalledDiarizationModels(modelsDir)).map((report) => report.model.name));
  printDiarizationCatalog(diarization, new Set(Object.keys(lock.models)));
  for (const line of damaged) console.error(`models: ${line}`);
  if (damaged.length > 0) process.exitCode = 1;
}

function printResult(model: CatalogModel, result: InstallModelResult, modelsDir: string, prefix = ''): void {
  if (result.status === 'already-installed') {
    console.log(`${prefix}${model.name} is already installed in ${result.directory}.`);
    return;
  }
  const test = result.selfTest!;
  console.log(
    `${prefix}self-test: ${test.passed ? 'passed' : 'FAILED'}, ${describeSelfTest(test)} (${test.audioSeconds.toFixed(1)} s of English)`,
  );
  const pin = result.pin === 'new' ? `pinned in ${modelsLockPath(modelsDir)}` : `matches the pin in ${modelsLockPath(modelsDir)}`;
  const hash = result.sha256
    ? `archive sha256 ${result.sha256}, ${megabytes(result.bytes ?? 0)}`
    : `folder, ${megabytes(result.bytes ?? 0)} of model files`;
  const forced = result.forced ? ' ACTIVATED WITH --force although the self-test failed.' : '';
  console.log(`${prefix}Installed ${model.name} in ${result.directory} (${hash}; ${pin}).${forced}`);
}

type Values = Record<string, string | boolean | undefined>;

function installOptions(modelsDir: string, model: CatalogModel, values: Values, source: ModelSource, prefix: string, tty: boolean) {
  const progress = progressReporter(model.name, prefix, tty);
  const options: InstallModelOptions = {
    modelsDir,
    model,
    source,
    force: values.force === true,
    retest: values.retest === true,
    expectedSha256: typeof values.sha256 === 'string' ? values.sha256 : null,
    onProgress: progress.onProgress,
    onRetry: (retry, delayMs, reason) => {
      progress.restart();
      console.log(
        `${prefix}download interrupted (${reason}); retry ${retry} in ${(delayMs / 1000).toFixed(1)} s, resuming where it stopped`,
      );
    },
    onStage: (stage) => {
      progress.stop();
      if (stage === 'self-test') console.log(`${prefix}self-test: decoding the test clip with ${model.name}...`);
      if (stage === 'unpack') console.log(`${prefix}unpacking and checking ${model.name}...`);
    },
  };
  if (typeof values['retry-delay-ms'] === 'string') options.retryBaseDelayMs = Number(values['retry-delay-ms']);
  return options;
}

/** A usage mistake: one line naming it, then the usage (EXIT.usage), as the commander CLIs answer. */
function usageMistake(message: string): void {
  console.error(`models: ${message}\n${USAGE}`);
  process.exitCode = EXIT.usage;
}

/** A command that needs an argument got none. */
function missingArgument(command: string, argument: string): void {
  usageMistake(`${command} needs ${argument}; see \`npm run models -- catalog\` for the names`);
}

function unknownModel(name: string): void {
  console.error(`models: unknown model "${name}"; see \`npm run models -- catalog\``);
  process.exitCode = EXIT.notFound;
}

async function download(modelsDir: string, names: string[], values: Values): Promise<void> {
  const [name] = names;
  if (!name) return missingArgument('download', 'a model NAME, e.g. `npm run models -- download ' + RECOMMENDED_CPU_MODEL + '`');
  if (isDiarizationName(name)) {
    await downloadDiarization(modelsDir, names, values);
    return;
  }
  if (names.length > 1) return usageMistake('download takes one recognition model, or one or two diarization models');
  const model = findCatalogModel(name);
  if (!model) return unknownModel(name);
  const source: ModelSource = { kind: 'release', mirrorUrl: typeof values.mirror === 'string' ? values.mirror : undefined };
  const result = await installModel(installOptions(modelsDir, model, values, source, '', process.stdout.isTTY === true));
  printResult(model, result, modelsDir);
}

async function installLocal(modelsDir: string, files: string[], values: Values): Promise<void> {
  const [file] = files;
  if (!file)
    return missingArgument('install', 'a model archive or folder, e.g. `npm run models -- install ' + RECOMMENDED_CPU_MODEL + '.tar.bz2`');
  for (const each of files) {
    if (!(await stat(each).catch(() => null))) {
      console.error(`models: ${resolve(each)} does not exist`);
      process.exitCode = EXIT.notFound;
      return;
    }
  }
  const name = typeof values.name === 'string' ? values.name : undefined;
  if (files.every((each) => diarizationModelOfFile(each, files.length === 1 ? name : undefined))) {
    await installDiarizationFiles(modelsDir, files, values);
    return;
  }
  if (files.length > 1) {
    usageMistake('install takes one recognition model, or one or two diarization models (a segmentation and an embedding model)');
    return;
  }
  const info = (await stat(file))!;
  const guess = typeof values.name === 'string' ? values.name : basename(resolve(file)).replace(/\.tar\.bz2$/, '');
  const model = findCatalogModel(guess);
  if (!model) {
    console.error(
      `models: cannot tell which catalog model ${file} is ("${guess}" is not in the catalog): keep the release's name (NAME.tar.bz2 or a folder NAME) or pass --name NAME`,
    );
    process.exitCode = EXIT.notFound;
    return;
  }
  const source: ModelSource = info.isDirectory() ? { kind: 'folder', directory: file } : { kind: 'archive', file };
  const result = await installModel(installOptions(modelsDir, model, values, source, '', process.stdout.isTTY === true));
  printResult(model, result, modelsDir);
}

async function remove(modelsDir: string, name: string | undefined, values: Values): Promise<void> {
  if (!name) return missingArgument('remove', 'the NAME of an installed model (`npm run models -- list` shows them)');
  if (isDiarizationName(name) && name !== 'diarization') return removeDiarization(modelsDir, name, values);
  sayRemoved(name, modelsDir, await removeModel(modelsDir, name, { unpin: values.unpin === true }), values.unpin === true);
}

/**
 * `first-start`: what the service runs in a background process on a start without a recognition
 * model or without a neural diarization model (MODELS_AUTO_INSTALL). Probes the release host for a few
 * seconds; unreachable → one line naming the commands to run later; else installs RECOMMENDED_CPU_MODEL
 * (unless `--skip-recognition` or a recognition model is there) and then the recommended diarization
 * pair (unless a diarization model is there), with percentage lines. Exit code 1 when an install failed.
 */
async function firstStart(modelsDir: string, values: Values): Promise<void> {
  const prefix = '[models] ';
  const model = findCatalogModel(RECOMMENDED_CPU_MODEL)!;
  const recognition = values['skip-recognition'] !== true && (await listInstalledModels(modelsDir)).models.length === 0;
  // Only a MODELS_DIR without any diarization model: a half or damaged pair is the operator's to mend (list says how).
  const diarization = (await locateDiarizationModels(modelsDir).catch(() => 'damaged')) === null;
  if (!recognition && !diarization) return;
  const mirrorUrl = typeof values.mirror === 'string' ? values.mirror : undefined;
  const url = recognition ? archiveUrlOf(model, mirrorUrl) : diarizationProbeUrl(mirrorUrl);
  const timeoutMs = typeof values['probe-timeout-ms'] === 'string' ? Number(values['probe-timeout-ms']) : 5000;
  const probe = await probeReleaseHost(url, timeoutMs);
  if (!probe.reachable) {
    console.log(`${prefix}${unreachableHostLine(url, probe.reason, model.name, { recognition, diarization })}`);
    return;
  }
  let ok = true;
  if (recognition) ok = await firstStartRecognition(modelsDir, model, mirrorUrl, values, prefix);
  if (diarization) ok = (await firstStartDiarization(modelsDir, values, prefix)) && ok;
  if (!ok) process.exitCode = 1;
}

/** First start, recognition part: installs `model` with `[models]` lines. @returns false when the install failed (said in one line). */
async function firstStartRecognition(
  modelsDir: string,
  model: CatalogModel,
  mirrorUrl: string | undefined,
  values: Values,
  prefix: string,
): Promise<boolean> {
  const url = archiveUrlOf(model, mirrorUrl);
  try {
    console.log(
      `${prefix}no model installed: installing ${model.name} (recommended for CPU) from ${url} in the background; the service keeps PocketSphinx until it restarts`,
    );
    const result = await installModel({
      ...installOptions(modelsDir, model, values, { kind: 'release', mirrorUrl }, prefix, false),
      maxRetries: 3,
    });
    printResult(model, result, modelsDir, prefix);
    if (result.status === 'installed')
      console.log(`${prefix}restart the service to use ${model.name} (it is chosen automatically at the next start)`);
    return true;
  } catch (error) {
    const message = (error as Error).message;
    if (message.startsWith(ANOTHER_INSTALL)) {
      console.log(`${prefix}another process is already installing ${model.name}`);
      return true;
    }
    console.log(
      `${prefix}installing ${model.name} failed: ${message.replace(/\.$/, '')}. Still on PocketSphinx; retry with \`npm run models -- download ${model.name}\``,
    );
    return false;
  }
}

const COMMANDS = ['list', 'catalog', 'download', 'install', 'remove', 'first-start'];

/** ` (did you mean list?)` for a command within two edits of a real one (a typo such as `lst`), else ``. */
function suggest(typed: string): string {
  const distance = (a: string, b: string): number => {
    let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
    for (let i = 1; i <= a.length; i += 1) {
      const row = [i];
      for (let j = 1; j <= b.length; j += 1)
        row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = row;
    }
    return previous[b.length]!;
  };
  const near = COMMANDS.find((name) => distance(typed, name) <= 2);
  return near ? ` (did you mean ${near}?)` : '';
}

const OPTIONS = {
  'models-dir': { type: 'string' },
  sha256: { type: 'string' },
  mirror: { type: 'string' },
  force: { type: 'boolean' },
  retest: { type: 'boolean' },
  name: { type: 'string' },
  unpin: { type: 'boolean' },
  'probe-timeout-ms': { type: 'string' },
  'retry-delay-ms': { type: 'string' },
  'skip-recognition': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

let parsed: ReturnType<typeof parseArgs<{ allowPositionals: true; options: typeof OPTIONS }>>;
try {
  parsed = parseArgs({ allowPositionals: true, options: OPTIONS });
} catch (error) {
  console.error(`models: ${(error as Error).message.split('\n')[0]}\n${USAGE}`);
  process.exit(EXIT.usage);
}
const { positionals, values } = parsed;
if (values.help) {
  console.log(USAGE); // `--help` / `-h` on the program or any command: the usage, exit 0
  process.exit(0);
}
if (typeof values.sha256 === 'string' && !isSha256Hex(values.sha256)) {
  console.error(`models: --sha256 takes the archive's SHA-256 as 64 hex digits (as sha256sum prints it), not "${values.sha256}"\n${USAGE}`);
  process.exit(EXIT.usage);
}
const env: Env = parseEnv();
const modelsDir = resolve(values['models-dir'] ?? env.MODELS_DIR);
try {
  const [command, argument, ...rest] = positionals;
  if (command === 'list') await list(modelsDir);
  else if (command === 'catalog') await catalog(modelsDir);
  else if (command === 'download') await download(modelsDir, argument === undefined ? [] : [argument, ...rest], values);
  else if (command === 'install') await installLocal(modelsDir, argument === undefined ? [] : [argument, ...rest], values);
  else if (command === 'remove') await remove(modelsDir, argument, values);
  else if (command === 'first-start') await firstStart(modelsDir, values);
  else if (command === undefined) usageMistake('no command given');
  else usageMistake(`unknown command '${command}'${suggest(command)}`);
} catch (error) {
  console.error(`models: ${(error as Error).message}`);
  process.exitCode = EXIT.failed;
}
