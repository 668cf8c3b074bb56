/**
 * A slug for element ids and fragments built from text (HTML ids may not contain white space, so an
 * `aria-controls` built from 'Health Care' would name two elements that do not exist): lower case,
 * accents dropped, every run of other characters one hyphen, none at the ends. Never empty.
 */
export function slugify(text: string): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return slug === '' ? 'item' : slug;
}
