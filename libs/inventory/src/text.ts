/** Lower case, accents and punctuation folded: "São Paulo" and "sao paulo" match. */
export function foldText(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[’'`.]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}
