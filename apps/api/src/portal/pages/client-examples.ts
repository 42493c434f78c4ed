/** A ready-to-paste example of using the API with a key (Python and JS Replicate clients, curl). */
export interface ClientExample {
  id: string;
  title: string;
  /** What to install or do first, in words. */
  note: string;
  code: string;
}

/**
 * The examples shown with a new key. The key goes into an environment variable (spec 5.4: keys
 * are kept outside source code); the client bases follow docs/api.md: Python `{root}/v1/replicate`,
 * npm `{root}/v1/replicate/v1`.
 * @param rootUrl the service root, e.g. `https://transcribe.example.com`.
 */
export function clientExamples(rootUrl: string, secret: string): ClientExample[] {
  const api = `${rootUrl}/v1/replicate/v1`;
  return [
    {
      id: 'shell',
      title: 'Keep the key in an environment variable',
      note: 'Paste this into your terminal (or your secret store); the examples below read it from there.',
      code: `export TRANSCRIBE_API_KEY="${secret}"`,
    },
    {
      id: 'curl',
      title: 'curl',
      note: 'Upload a file, then read the prediction until its status is succeeded.',
      code: [
        `curl -sS -X POST "${api}/models/service/transcribe/predictions" \\`,
        '  -H "Authorization: Bearer $TRANSCRIBE_API_KEY" \\',
        '  -F "input.audio=@talk.mp3" -F "input.output_format=text"',
        '',
        `curl -sS "${api}/predictions/PREDICTION_ID" -H "Authorization: Bearer $TRANSCRIBE_API_KEY"`,
      ].join('\n'),
    },
    {
      id: 'python',
      title: 'Python (replicate client)',
      note: 'Install with pip install "replicate<0.32".',
      code: [
        'import os',
        'import replicate',
        '',
        `client = replicate.Client(api_token=os.environ["TRANSCRIBE_API_KEY"], base_url="${rootUrl}/v1/replicate")`,
        'with open("talk.mp3", "rb") as recording:',
        '    output = client.run("service/transcribe", input={"audio": recording, "output_format": "text"})',
        'print(output)',
      ].join('\n'),
    },
    {
      id: 'js',
      title: 'JavaScript (replicate client)',
      note: 'Install with npm install replicate (Node 18 or newer; save as an .mjs file).',
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
  ];
}
