/** A headline for de-duplication (docs/rules/drop-items.md, docs/rules/crypto.md §3.2): lower case, every run of other characters one space. */
export const normalisedTitle = (headline: string) => headline.toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim();
