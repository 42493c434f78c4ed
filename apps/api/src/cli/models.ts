import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import {
  findCatalogModel,
  installModel,
  listInstalledModels,
  MODEL_CATALOG,
  modelFixCommand,
  type InstalledModelReport,
} from '@transcribe/core';
import { parseEnv, type Env } from '../env.ts';

const USAGE = `Usage:
  npm run models -- list                      what MODELS_DIR holds, and whether each model is usable
  npm run models -- catalog                   the models that can be downloaded
  npm run models -- download NAME [--sha256 HEX | --trust-unverified] [--mirror URL]
                                              fetch NAME from its official release, verify, unpack
Options: --models-dir DIR (default: MODELS_DIR, else ./models)`;

/** MODELS_DIR as env.ts parses it; `./models` while env.ts does not declare it. */
function modelsDirOf(env: Env, flag: string | undefined): string {
  return resolve(flag ?? env.MODELS_DIR);
}

const megabytes = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

function describeInstall(report: InstalledModelReport): string {
  if (!report.install) return 'installed by hand';
  return report.install.verified ? `sha256 verified ${report.install.sha256}` : `sha256 NOT verified ${report.install.sha256}`;
}

async function list(modelsDir: string): Promise<void> {
  const { models, unknown } = await listInstalledModels(modelsDir);
  console.log(`MODELS_DIR ${modelsDir}`);
  if (models.length === 0) console.log('No sherpa-onnx model is installed. See `npm run models -- catalog`, then `npm run models -- download NAME`.');
  for (const report of models) {
    const languages = report.model.languages.length > 6 ? `${report.model.languages.length} languages` : report.model.languages.join(',');
    console.log(`${report.status.padEnd(6)}  ${report.model.name}  ${report.model.family}  ${languages}  ${megabytes(report.bytes)}  ${describeInstall(report)}`);
    for (const problem of report.problems) console.log(`        ${problem}`);
    if (report.status === 'broken') console.log(`        fix: ${modelFixCommand(report.model.name)}`);
  }
  for (const name of unknown) console.log(`other   ${name}  (not in the catalog; ignored)`);
}

async function catalog(modelsDir: string): Promise<void> {
  const installed = new Map((await listInstalledModels(modelsDir)).models.map((report) => [report.model.name, report.status]));
  for (const model of MODEL_CATALOG) {
    const languages = model.languages.length > 6 ? `${model.languages.length} languages` : model.languages.join(',');
    const state = installed.get(model.name) ?? '-';
    console.log(`${state.padEnd(6)}  ${model.name}  ${model.family}  ${model.parametersMillions}M  ${languages}  sha256 ${model.sha256 ?? 'unknown'}`);
    console.log(`        ${model.description}`);
  }
}

async function download(modelsDir: string, name: string | undefined, values: Record<string, string | boolean | undefined>): Promise<void> {
  const model = name ? findCatalogModel(name) : undefined;
  if (!model) {
    console.error(name ? `models: unknown model "${name}"; see \`npm run models -- catalog\`` : USAGE);
    process.exitCode = 2;
    return;
  }
  let reported = -1;
  const result = await installModel({
    modelsDir, model, trustUnverified: values['trust-unverified'] === true,
    expectedSha256: typeof values.sha256 === 'string' ? values.sha256 : null,
    mirrorUrl: typeof values.mirror === 'string' ? values.mirror : undefined,
    onProgress: (received, total) => {
      const step = total ? Math.floor((received / total) * 10) : Math.floor(received / 1e8);
      if (step > reported) console.error(`downloading ${model.name}: ${total ? `${(reported = step) * 10}% of ${megabytes(total)}` : megabytes((reported = step) * 1e8)}`);
    },
  });
  if (result.status === 'already-installed') console.log(`${model.name} is already installed in ${result.directory}.`);
  else console.log(`Installed ${model.name} in ${result.directory} (archive sha256 ${result.sha256}, ${result.verified ? 'verified' : 'NOT verified: --trust-unverified'}).`);
}

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    'models-dir': { type: 'string' }, 'trust-unverified': { type: 'boolean' }, sha256: { type: 'string' }, mirror: { type: 'string' },
  },
});
const modelsDir = modelsDirOf(parseEnv(), values['models-dir']);
try {
  const [command, name] = positionals;
  if (command === 'list') await list(modelsDir);
  else if (command === 'catalog') await catalog(modelsDir);
  else if (command === 'download') await download(modelsDir, name, values);
  else {
    console.error(USAGE);
    process.exitCode = 2;
  }
} catch (error) {
  console.error(`models: ${(error as Error).message}`);
  process.exitCode = 1;
}
