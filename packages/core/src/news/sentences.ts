/** Sentence splitting shared by the local analyst and the dashboard's summary bullets. */

/** Abbreviations whose dot does not end a sentence. */
const ABBREVIATIONS = /(?:\b(?:U\.S|U\.K|E\.U|Inc|Corp|Co|Ltd|Jr|Sr|St|Mr|Mrs|Ms|Dr|vs|etc|e\.g|i\.e|No|approx|est|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)|\b[A-Z])\.$/;

/**
 * The sentences of one line: a sentence ends at `.`, `!` or `?` (with any closing quotes or
 * brackets) followed by white space, except after a known abbreviation or a single capital
 * (`U.S.`, `J. Powell`). Decimals (`3.5%`) never split: no space follows their dot.
 */
export function splitSentences(line: string): string[] {
  const sentences: string[] = [];
  const boundary = /[.!?]+["')\]]*\s+/g;
  let start = 0;
  for (let match = boundary.exec(line); match !== null; match = boundary.exec(line)) {
    const end = match.index + match[0].trimEnd().length;
    const candidate = line.slice(start, end);
    if (match[0].startsWith('.') && ABBREVIATIONS.test(line.slice(start, match.index + 1))) continue;
    if (candidate.trim()) sentences.push(candidate.trim());
    start = match.index + match[0].length;
  }
  const rest = line.slice(start).trim();
  if (rest) sentences.push(rest);
  return sentences;
}
