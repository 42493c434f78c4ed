import { stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import {
  describeDiarizationSelfTest,
  DIARIZATION_INSTALL_COMMAND,
  DIARIZATION_MODEL_CATALOG,
  diarizationArchiveUrlOf,
  diarizationModelsOf,
  findDiarizationCatalogModel,
  installDiarizationModels,
  listInstalledDiarizationModels,
  locateDiarizationModels,
  modelsLockPath,
  RECOMMENDED_EMBEDDING_MODEL,
  RECOMMENDED_SEGMENTATION_MODEL,
  removeDiarizationModel,
  type DiarizationCatalogModel,
  type DiarizationInstallRequest,
  type InstallDiarizationOptions,
  type InstallDiarizationResult,
  type InstalledDiarizationReport,
  type ModelSource,
} from '@transcribe/core';
import { megabytes, progressReporter } from './report-download-progress.ts';

/** What `download diarization` stands for: the recommended pair (docs/diarization.md, "The neural diarizer's models"). */
export const DIARIZATION_PAIR_ALIAS = 'diarization';

type Values = Record<string, string | boolean | undefined>;

/** Whether `download`/`remove` NAME is a diarization model of the catalog, or the pair's alias. */
export function isDiarizationName(name: string | undefined): boolean {
  return name === DIARIZATION_PAIR_ALIAS || (name !== undefined && findDiarizationCatalogModel(name) !== undefined);
}

function describeRecord(report: InstalledDiarizationReport): string {
  const record = report.install;
  if (!record?.selfTest)
    return report.layout === 'loose' ? 'put there by hand (no hash, no self-test)' : 'installed by hand (no hash, no self-test)';
  const hash = record.sha256 ? `sha256 ${record.sha256}` : `files-sha256 ${record.contentSha256}`;
  const test = record.selfTest;
  const partner = report.model.role === 'segmentation' ? test.pair.embedding : test.pair.segmentation;
  const figures = describeDiarizationSelfTest(test);
  const verdict = test.passed
    ? `self-test passed with ${partner} (${figures})`
    : `self-test FAILED with ${partner} (${test.reason}; ${figures}), activated with --force`;
  return `${hash}  ${verdict}`;
}

/**
 * `list`, diarization part: each diarization model present (ready or broken, size, hash, the pair's
 * self-test), then which diarizer a prediction would run.
 * @returns the names listed (so their pins are not listed again as "not installed").
 */
export async function listDiarization(modelsDir: string): Promise<Set<string>> {
  const reports = await listInstalledDiarizationModels(modelsDir);
  if (reports.length === 0) {
    console.log(
      `No neural diarization model is installed (the built-in diarizer runs). Install the recommended pair with \`${DIARIZATION_INSTALL_COMMAND}\`.`,
    );
  }
  for (const report of reports) {
    const status = report.problem === null ? 'ready' : 'broken';
    const where = report.layout === 'loose' ? `  (${basename(report.path)})` : '';
    console.log(
      `${status.padEnd(6)}  ${report.model.name}  diarization ${report.model.role}${where}  ${megabytes(report.bytes)}  ${describeRecord(report)}`,
    );
    if (report.problem !== null) {
      console.log(`        ${report.path} ${report.problem}`);
      console.log(`        fix: npm run models -- download ${report.model.name}`);
    }
  }
  if (reports.length > 0) {
    try {
      const pair = await locateDiarizationModels(modelsDir);
      if (pair) console.log(`diarizer: sherpa-onnx with ${pair.names.segmentation} + ${pair.names.embedding}`);
    } catch (error) {
      console.log(`diarizer: none can run: ${(error as Error).message}`);
    }
  }
  return new Set(reports.map((report) => report.model.name));
}

/** `catalog`, diarization part: every model with its role, size, licence, published figures and source. */
export function printDiarizationCatalog(installed: ReadonlySet<string>, pinned: ReadonlySet<string>): void {
  for (const model of DIARIZATION_MODEL_CATALOG) {
    const state = installed.has(model.name) ? 'ready' : '-';
    const hash = pinned.has(model.name) ? 'pinned in models.lock.json' : 'pinned on first install';
    const recommended =
      model.name === RECOMMENDED_SEGMENTATION_MODEL || model.name === RECOMMENDED_EMBEDDING_MODEL ? '  (recommended pair)' : '';
    const parameters = model.parametersMillions === null ? '' : `  ${model.parametersMillions}M`;
    console.log(
      `${state.padEnd(6)}  ${model.name}  diarization ${model.role}${parameters}  ${model.megabytes} MB  ${model.license}  ${hash}${recommended}`,
    );
    console.log(`        ${model.description}`);
    for (const figure of model.figures) console.log(`        published: ${figure}`);
  }
}

/** The catalog models of `names` (the alias for the recommended pair), or the unknown name. */
function resolveNames(names: readonly string[]): DiarizationCatalogModel[] | string {
  const models: DiarizationCatalogModel[] = [];
  for (const name of names) {
    if (name === DIARIZATION_PAIR_ALIAS) {
      models.push(findDiarizationCatalogModel(RECOMMENDED_SEGMENTATION_MODEL)!, findDiarizationCatalogModel(RECOMMENDED_EMBEDDING_MODEL)!);
      continue;
    }
    const model = findDiarizationCatalogModel(name);
    if (!model) return name;
    models.push(model);
  }
  return models;
}

/**
 * With one model asked for and no usable model of the other role installed, adds the other role's
 * recommended model (a diarization model is tested and used as a pair).
 */
async function completePair(
  modelsDir: string,
  requests: DiarizationInstallRequest[],
  source: ModelSource,
  prefix: string,
): Promise<DiarizationInstallRequest[]> {
  if (requests.length !== 1) return requests;
  const role = requests[0]!.model.role === 'segmentation' ? 'embedding' : 'segmentation';
  const installed = (await listInstalledDiarizationModels(modelsDir)).some(
    (report) => report.model.role === role && report.problem === null,
  );
  if (installed) return requests;
  const partner = diarizationModelsOf(role)[0]!;
  if (source.kind !== 'release') return requests; // a local file: installDiarizationModels names the missing partner
  console.log(`${prefix}no ${role} model is installed: installing ${partner.name} (recommended) with it, as a pair`);
  return [...requests, { model: partner, source }];
}

function installOptions(
  modelsDir: string,
  requests: DiarizationInstallRequest[],
  values: Values,
  prefix: string,
  tty: boolean,
): InstallDiarizationOptions {
  const reporters = new Map(requests.map((request) => [request.model.name, progressReporter(request.model.name, prefix, tty)]));
  let selfTestSaid = false;
  const options: InstallDiarizationOptions = {
    modelsDir,
    requests,
    force: values.force === true,
    expectedSha256: typeof values.sha256 === 'string' ? values.sha256 : null,
    onProgress: (name, received, total) => reporters.get(name)?.onProgress(received, total),
    onRetry: (name, retry, delayMs, reason) => {
      reporters.get(name)?.restart();
      console.log(
        `${prefix}download of ${name} interrupted (${reason}); retry ${retry} in ${(delayMs / 1000).toFixed(1)} s, resuming where it stopped`,
      );
    },
    onStage: (name, stage) => {
      reporters.get(name)?.stop();
      if (stage === 'unpack') console.log(`${prefix}unpacking and checking ${name}...`);
      if (stage === 'self-test' && !selfTestSaid) console.log(`${prefix}self-test: diarizing the two-speaker clip with the pair...`);
      if (stage === 'self-test') selfTestSaid = true;
    },
  };
  if (typeof values['retry-delay-ms'] === 'string') options.retryBaseDelayMs = Number(values['retry-delay-ms']);
  return options;
}

function printResult(result: InstallDiarizationResult, modelsDir: string, prefix: string): void {
  const test = result.selfTest;
  if (test) {
    console.log(
      `${prefix}self-test: ${test.passed ? 'passed' : 'FAILED'}, ${describeDiarizationSelfTest(test)} on the two-speaker clip (${test.audioSeconds.toFixed(1)} s), ` +
        `${result.pair.segmentation} + ${result.pair.embedding}${test.reason ? `: ${test.reason}` : ''}`,
    );
  }
  for (const one of result.models) {
    if (one.status === 'already-installed') {
      console.log(`${prefix}${one.model.name} is already installed in ${one.directory}.`);
      continue;
    }
    const pin = one.pin === 'new' ? `pinned in ${modelsLockPath(modelsDir)}` : `matches the pin in ${modelsLockPath(modelsDir)}`;
    const hash = one.sha256 ? `sha256 ${one.sha256}, ${megabytes(one.bytes ?? 0)}` : `folder, ${megabytes(one.bytes ?? 0)}`;
    const forced = result.forced ? ' ACTIVATED WITH --force although the self-test failed.' : '';
    console.log(`${prefix}Installed ${one.model.name} in ${one.directory} (${hash}; ${pin}).${forced}`);
  }
}

/**
 * `download NAME [NAME]` for diarization models: `diarization` (the recommended pair), one model (with
 * the recommended partner when none of its other role is installed) or a segmentation and an embedding
 * model. @returns false (after a message, exit code 2) for an unknown name.
 */
export async function downloadDiarization(modelsDir: string, names: readonly string[], values: Values, prefix = ''): Promise<boolean> {
  const models = resolveNames(names);
  if (typeof models === 'string') {
    console.error(`models: unknown model "${models}"; see \`npm run models -- catalog\``);
    process.exitCode = 2;
    return false;
  }
  const source: ModelSource = { kind: 'release', mirrorUrl: typeof values.mirror === 'string' ? values.mirror : undefined };
  const requests = await completePair(
    modelsDir,
    models.map((model) => ({ model, source })),
    source,
    prefix,
  );
  const result = await installDiarizationModels(
    installOptions(modelsDir, requests, values, prefix, prefix === '' && process.stdout.isTTY === true),
  );
  printResult(result, modelsDir, prefix);
  return true;
}

/** The diarization model a local file or folder is, told by its name (`NAME.tar.bz2`, `NAME.onnx`, a folder `NAME`) or `--name`. */
export function diarizationModelOfFile(file: string, name: string | undefined): DiarizationCatalogModel | undefined {
  return findDiarizationCatalogModel(name ?? basename(resolve(file)).replace(/\.(tar\.bz2|onnx)$/, ''));
}

/** `install FILE [FILE]` for diarization models (offline): each file a release asset or a folder. */
export async function installDiarizationFiles(modelsDir: string, files: readonly string[], values: Values): Promise<void> {
  const requests: DiarizationInstallRequest[] = [];
  for (const file of files) {
    const model = diarizationModelOfFile(file, files.length === 1 && typeof values.name === 'string' ? values.name : undefined)!;
    const info = await stat(file);
    requests.push({ model, source: info.isDirectory() ? { kind: 'folder', directory: file } : { kind: 'archive', file } });
  }
  const result = await installDiarizationModels(installOptions(modelsDir, requests, values, '', process.stdout.isTTY === true));
  printResult(result, modelsDir, '');
}

/** `remove NAME [--unpin]` for a diarization model. */
export async function removeDiarization(modelsDir: string, name: string, values: Values): Promise<void> {
  sayRemoved(name, modelsDir, await removeDiarizationModel(modelsDir, name, { unpin: values.unpin === true }), values.unpin === true);
}

/**
 * Prints what `remove NAME` did, for a recognition or a diarization model: removed or not installed,
 * and what became of its pin in models.lock.json (dropped, or kept with how to drop it).
 */
export function sayRemoved(
  name: string,
  modelsDir: string,
  { removed, unpinned }: { removed: boolean; unpinned: boolean },
  unpinAsked: boolean,
): void {
  const pin = unpinned
    ? ' and dropped its pin'
    : unpinAsked
      ? ''
      : '; its pin in models.lock.json stays (a reinstall must match it; --unpin drops it)';
  console.log(
    removed
      ? `Removed ${name} from ${modelsDir}${pin}.`
      : `${name} was not installed in ${modelsDir}${unpinned ? '; dropped its pin' : ''}.`,
  );
}

/** The URL first-start probes for the diarization pair: the recommended segmentation model's asset. */
export function diarizationProbeUrl(mirrorUrl: string | undefined): string {
  return diarizationArchiveUrlOf(findDiarizationCatalogModel(RECOMMENDED_SEGMENTATION_MODEL)!, mirrorUrl);
}

/**
 * First start, diarization part: installs the recommended pair with `[models]` lines. Never throws.
 * @returns false when the install failed (already said in one line with the command to retry).
 */
export async function firstStartDiarization(modelsDir: string, values: Values, prefix: string): Promise<boolean> {
  const url = diarizationProbeUrl(typeof values.mirror === 'string' ? values.mirror : undefined);
  try {
    console.log(
      `${prefix}no neural diarization model installed: installing ${RECOMMENDED_SEGMENTATION_MODEL} + ${RECOMMENDED_EMBEDDING_MODEL} (recommended pair) from ${url.slice(0, url.lastIndexOf('/') + 1)} in the background; ` +
        'the built-in diarizer runs until the pair is installed, then predictions use it (no restart needed)',
    );
    await downloadDiarization(modelsDir, [DIARIZATION_PAIR_ALIAS], { ...values, force: false }, prefix);
    return true;
  } catch (error) {
    console.log(
      `${prefix}installing the diarization pair failed: ${(error as Error).message.replace(/\.$/, '')}. Still on the built-in diarizer; retry with \`${DIARIZATION_INSTALL_COMMAND}\``,
    );
    return false;
  }
}
