import type { PortalReader } from '../portal-i18n.ts';

/** A ready-to-paste example of using the API with a key. */
export interface ClientExample {
  id: string;
  title: string;
  /** What to install or do first, in words. */
  note: string;
  code: string;
  /** Label of its copy button. */
  copy: string;
}

/**
 * The base URL each client takes (docs/api.md, docs/openai-api.md; the bot's key message gives the
 * same three): the Python `replicate` client `{root}/v1/replicate` (it adds `/v1/…`), the npm client
 * and curl `{root}/v1/replicate/v1`, the OpenAI SDKs `{root}/v1` (the OpenAI-compatible
 * `/v1/audio/transcriptions`).
 * @param rootUrl the service root, e.g. `https://transcribe.example.com`.
 */
export function clientBaseUrls(rootUrl: string): { python: string; npm: string; openai: string } {
  return { python: `${rootUrl}/v1/replicate`, npm: `${rootUrl}/v1/replicate/v1`, openai: `${rootUrl}/v1` };
}

/**
 * The examples shown with a new key: curl (its first line puts the key into an environment
 * variable, spec 5.4: keys are kept outside source code; the others read it from there), the Python
 * and JavaScript Replicate clients, and the OpenAI SDK on the OpenAI-compatible endpoint. Titles and
 * notes in the reader's language.
 */
export function clientExamples(rootUrl: string, secret: string, { t }: PortalReader): ClientExample[] {
  const bases = clientBaseUrls(rootUrl);
  const api = bases.npm;
  return [
    {
      id: 'curl',
      title: 'curl',
      note: t('portal-example-curl-note'),
      copy: t('portal-copy-curl'),
      code: [
        `export TRANSCRIBE_API_KEY="${secret}"`,
        `curl -sS -X POST "${api}/models/service/transcribe/predictions" \\`,
        '  -H "Authorization: Bearer $TRANSCRIBE_API_KEY" \\',
        '  -F "input.audio=@talk.mp3" -F "input.output_format=text"',
        '',
        `curl -sS "${api}/predictions/PREDICTION_ID" -H "Authorization: Bearer $TRANSCRIBE_API_KEY"`,
      ].join('\n'),
    },
    {
      id: 'python',
      title: t('portal-example-python'),
      note: t('portal-example-python-note'),
      copy: t('portal-copy-code'),
      code: [
        'import os',
        'import replicate',
        '',
        `client = replicate.Client(api_token=os.environ["TRANSCRIBE_API_KEY"], base_url="${bases.python}")`,
        'with open("talk.mp3", "rb") as recording:',
        '    output = client.run("service/transcribe", input={"audio": recording, "output_format": "text"})',
        'print(output)',
      ].join('\n'),
    },
    {
      id: 'js',
      title: t('portal-example-js'),
      note: t('portal-example-js-note'),
      copy: t('portal-copy-code'),
      code: [
        'import { readFile } from "node:fs/promises";',
        'import Replicate from "replicate";',
        '',
        `const replicate = new Replicate({ auth: process.env.TRANSCRIBE_API_KEY, baseUrl: "${api}" });`,
        'const output = await replicate.run("service/transcribe", {',
        '  input: { audio: await readFile("talk.mp3"), output_format: "text" },',
        '});',
        'console.log(output);',
      ].join('\n'),
    },
    {
      id: 'openai',
      title: t('portal-example-openai'),
      note: t('portal-example-openai-note'),
      copy: t('portal-copy-code'),
      code: [
        'import os',
        'from openai import OpenAI',
        '',
        `client = OpenAI(api_key=os.environ["TRANSCRIBE_API_KEY"], base_url="${bases.openai}")`,
        'with open("talk.mp3", "rb") as recording:',
        '    print(client.audio.transcriptions.create(model="whisper-1", file=recording).text)',
      ].join('\n'),
    },
  ];
}
