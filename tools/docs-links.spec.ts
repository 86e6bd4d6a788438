import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, extname, join, relative, resolve, sep } from 'node:path';

// Every relative link of every Markdown file in the repository reaches something: the file
// (or folder) it names exists inside the repository, and its `#anchor` (also a same-file
// `(#anchor)`) is a heading of the target as GitHub makes anchors of headings. Links with
// a scheme (http, https, mailto) are not followed.

const ROOT = resolve(__dirname, '..');
const SKIPPED_DIRECTORIES = new Set(['node_modules', 'dist', '.nx', '.data', 'coverage', 'test-output', '.git']);
const EXTERNAL = /^(https?|mailto):/i;
/** A link of another scheme (ftp:, file:, data:…): none belongs in these documents. */
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;
/** GitHub's line anchors on a source file: #L10, #L10-L20. */
const LINE_ANCHOR = /^L\d+(-L\d+)?$/;

function markdownFiles(directory = ''): string[] {
  return readdirSync(join(ROOT, directory), { withFileTypes: true }).flatMap((entry) => {
    const path = directory ? `${directory}/${entry.name}` : entry.name;
    if (entry.isDirectory()) return SKIPPED_DIRECTORIES.has(entry.name) ? [] : markdownFiles(path);
    return entry.isFile() && entry.name.toLowerCase().endsWith('.md') ? [path] : [];
  });
}

/** The document's lines with fenced code blocks blanked (their lines kept, so numbers stay right). */
function proseLines(markdown: string): string[] {
  let fence: string | null = null;
  return markdown.split('\n').map((line) => {
    const opening = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (fence === null && opening) {
      fence = opening[1][0].repeat(opening[1].length);
      return '';
    }
    if (fence !== null) {
      if (new RegExp(`^\\s{0,3}${fence[0] === '`' ? '`' : '~'}{${fence.length},}\\s*$`).test(line)) fence = null;
      return '';
    }
    return line;
  });
}

/** A line without its inline code spans and HTML comments: what is left may hold links. */
function withoutCode(line: string): string {
  return line.replace(/(`+)[\s\S]*?\1/g, '').replace(/<!--[\s\S]*?-->/g, '');
}

/** The text GitHub shows for a heading: code, emphasis, links and tags reduced to their words. */
function headingText(heading: string): string {
  return heading
    .replace(/(`+)([\s\S]*?)\1/g, '$2')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/(\*\*|__|\*)/g, '')
    .trim();
}

/** GitHub's anchor of a heading: lower case, punctuation out but for `-` and `_`, each space a `-`. */
export function slug(heading: string): string {
  return headingText(heading)
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** Every anchor a Markdown document has: its headings' slugs (repeats get -1, -2…) and explicit `<a name>`/`id` anchors. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const add = (heading: string) => {
    const base = slug(heading);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  };
  const lines = proseLines(markdown);
  lines.forEach((line, index) => {
    const atx = /^\s{0,3}#{1,6}\s+(.*?)(\s+#+)?\s*$/.exec(line);
    if (atx) add(atx[1]);
    // A setext heading: a line of text underlined with = or -.
    const next = lines[index + 1] ?? '';
    if (!atx && line.trim() && !/^\s*[|>*+-]/.test(line) && /^\s{0,3}(=+|-+)\s*$/.test(next)) add(line.trim());
    for (const [, name] of line.matchAll(/<a\s+(?:name|id)="([^"]+)"/gi)) anchors.add(name);
  });
  return anchors;
}

/** The links of a document, with their lines: inline `[text](target)` and reference definitions `[ref]: target`. */
function linksOf(markdown: string): { line: number; target: string }[] {
  const links: { line: number; target: string }[] = [];
  proseLines(markdown).forEach((raw, index) => {
    const line = withoutCode(raw);
    for (const [, target] of line.matchAll(/\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)/g)) links.push({ line: index + 1, target });
    const definition = /^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(\s+"[^"]*")?\s*$/.exec(line);
    if (definition) links.push({ line: index + 1, target: definition[1] });
  });
  return links;
}

const anchorCache = new Map<string, Set<string>>();
function anchorsOfFile(file: string): Set<string> {
  let anchors = anchorCache.get(file);
  if (!anchors) {
    anchors = anchorsOf(readFileSync(file, 'utf8'));
    anchorCache.set(file, anchors);
  }
  return anchors;
}

/** Why a link of `from` (a path from the root) does not resolve, or null when it does. */
function brokenBecause(from: string, target: string): string | null {
  if (target === '') return 'empty link';
  if (SCHEME.test(target)) return 'a link with a scheme other than http, https or mailto';
  const hash = target.indexOf('#');
  const pathPart = hash < 0 ? target : target.slice(0, hash);
  const anchor = hash < 0 ? null : target.slice(hash + 1);
  if (pathPart.startsWith('/')) return 'an absolute path: link relative to the document';
  let decodedPath: string;
  let decodedAnchor: string | null;
  try {
    decodedPath = decodeURIComponent(pathPart);
    decodedAnchor = anchor === null ? null : decodeURIComponent(anchor);
  } catch {
    return 'not valid percent-encoding';
  }
  const file = pathPart === '' ? join(ROOT, from) : resolve(ROOT, dirname(from), decodedPath);
  const inside = relative(ROOT, file);
  if (inside.startsWith('..') || inside.startsWith(sep) || resolve(ROOT, inside) !== file) return 'points outside the repository';
  if (!existsSync(file)) return `no such file: ${inside}`;
  if (decodedAnchor === null) return null;
  if (statSync(file).isDirectory()) return `an anchor on a folder (${inside})`;
  if (extname(file).toLowerCase() !== '.md') return LINE_ANCHOR.test(decodedAnchor) ? null : `an anchor on a file that has no headings (${inside})`;
  if (decodedAnchor === '') return 'an empty anchor';
  return anchorsOfFile(file).has(decodedAnchor) ? null : `no heading with the anchor #${decodedAnchor} in ${inside}`;
}

describe('the links of the Markdown documents', () => {
  it('GitHub anchors: lower case, punctuation out but - and _, spaces to -', () => {
    expect(slug('Create: `POST /api/user`')).toBe('create-post-apiuser');
    expect(slug('`client_reference`')).toBe('client_reference');
    expect(slug('401, 403 and 404')).toBe('401-403-and-404');
    expect(slug('The cost of tracing (`npm run bench -- --tracing`)')).toBe('the-cost-of-tracing-npm-run-bench------tracing');
    expect(slug('Vouchers and **cancellation**')).toBe('vouchers-and-cancellation');
    expect([...anchorsOf('# A\n\n## Notes\n\n## Notes\n\n```sh\n# Notes\n```\n\nSetext\n------\n')]).toEqual(['a', 'notes', 'notes-1', 'setext']);
  });

  it('finds the links in prose, not in code', () => {
    const links = linksOf('See [a](a.md) and [b](b.md#x "title").\n\n`[c](c.md)`\n\n```\n[d](d.md)\n```\n\n[e]: e.md\n');
    expect(links).toEqual([
      { line: 1, target: 'a.md' },
      { line: 1, target: 'b.md#x' },
      { line: 9, target: 'e.md' },
    ]);
  });

  it('every relative link reaches an existing file, and every anchor a heading of it', () => {
    const files = markdownFiles();
    expect(files).toContain('README.md');
    const broken: string[] = [];
    for (const file of files) {
      for (const { line, target } of linksOf(readFileSync(join(ROOT, file), 'utf8'))) {
        if (EXTERNAL.test(target)) continue;
        const reason = brokenBecause(file, target);
        if (reason) broken.push(`${file}:${line}: (${target}): ${reason}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
