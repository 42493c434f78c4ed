/**
 * Common English words that start sentences or are capitalised by habit (`I`, days, months are
 * kept: they are names). A capitalised word from this list is never taken alone as a hint.
 */
const COMMON_WORDS = new Set(
  `a about after all also an and another any are as at be because been before both but by
can could did do does each even every few for from had has have he her here hers him his how however i if in into is
it its just let many may me more most much my no nor not now of on once one only or other our ours over please she
since so some such than that the their them then there these they this those though through thus to today tomorrow
too under until up us very was we were what when where whether which while who whom whose why will with within without
would yes yet you your yours hello hi dear thanks thank okay ok well note see meeting team call new good`.split(/\s+/),
);

/** Words of a sentence with their punctuation-free form; `joined` is false after a comma etc. */
function splitWords(sentence: string): Array<{ word: string; joined: boolean }> {
  const words: Array<{ word: string; joined: boolean }> = [];
  let joined = false;
  for (const raw of sentence.split(/\s+/)) {
    const word = raw.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
    if (word !== '') words.push({ word, joined });
    joined = word !== '' && !/[,;:()"“”«»]$/.test(raw) && !/^[("“«]/.test(raw);
  }
  return words;
}

/**
 * `hint`: a name or term (has a digit, two capitals as in `NASA` / `GitHub`, or starts with a
 * capital and is not a common word); `part`: a capitalised common word inside a sentence (`New`),
 * kept only inside a phrase; null: neither.
 */
function kindOf(word: string, first: boolean): 'hint' | 'part' | null {
  if (/\p{N}/u.test(word) && /\p{L}/u.test(word)) return 'hint';
  if ((word.match(/\p{Lu}/gu) ?? []).length >= 2) return 'hint';
  if (!/^\p{Lu}/u.test(word)) return null;
  if (COMMON_WORDS.has(word.toLowerCase())) return first ? null : 'part';
  return 'hint';
}

/**
 * Spelling hints from a free-text `prompt` (spec 2.2), for engines that cannot take a prompt
 * (apply-spelling-hints.ts): the names and terms Whisper's prompt is used for. Taken: words with
 * digits (`GPT-4`, `B2B`), acronyms and inner capitals (`NASA`, `GitHub`), and capitalised words
 * other than common English words; runs of capitalised words not split by punctuation also become
 * one phrase of at most 3 words (`John Dashwood`, `New Jersey`).
 * @returns distinct hints in prompt order, at most `limit` (default 100, as spec 2.2 hotwords).
 */
export function derivePromptHints(prompt: string | null, limit = 100): string[] {
  if (prompt === null) return [];
  const hints: string[] = [];
  const add = (hint: string) => {
    if (!hints.includes(hint)) hints.push(hint);
  };
  for (const sentence of prompt.split(/(?<=[.!?])\s+|\n+/)) {
    let run: Array<{ word: string; kind: 'hint' | 'part' }> = [];
    const flush = () => {
      if (run.length > 1 && run.some((item) => item.kind === 'hint')) add(run.map((item) => item.word).join(' '));
      run = [];
    };
    splitWords(sentence).forEach(({ word, joined }, i) => {
      const kind = kindOf(word, i === 0);
      if (!joined || run.length === 3 || kind === null) flush();
      if (kind === null) return;
      if (kind === 'hint') add(word);
      run.push({ word, kind });
    });
    flush();
  }
  return hints.slice(0, limit);
}
