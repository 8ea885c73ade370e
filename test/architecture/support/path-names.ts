/**
 * Finds the file and folder names a comment or a document mentions, and which of them name nothing
 * in the repository (a name left behind by a move or a deletion).
 */
import ts from 'typescript';

const ROOTS = 'src|test|bench|scripts|docs|manifests';
const CODE_EXT = 'ts|tsx|js|mjs|cjs|json|md|sql|yaml|yml|css';

/** Rooted names (`src/…`), file names with or without folders (`ports/store.ts`), backticked folders. */
const NAME = new RegExp(
  [
    `(?<![\\w./@-])(?:${ROOTS})/[\\w./-]*`,
    `(?<![\\w./@-])(?:\\.{1,2}/)?[\\w-]+(?:[./][\\w-]+)*\\.(?:${CODE_EXT})\\b`,
    '(?<=`)[\\w.-]+(?:/[\\w.-]+)*/(?=`)',
  ].join('|'),
  'g',
);

/** The comments of a TypeScript or JavaScript source, each once. */
export function commentsOf(fileName: string, text: string): string[] {
  const file = ts.createSourceFile(
    fileName,
    text,
    ts.ScriptTarget.Latest,
    false,
    fileName.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const seen = new Map<number, string>();
  const take = (ranges: ts.CommentRange[] | undefined) => {
    for (const r of ranges ?? []) seen.set(r.pos, text.slice(r.pos, r.end));
  };
  const visit = (node: ts.Node) => {
    take(ts.getLeadingCommentRanges(text, node.pos));
    take(ts.getTrailingCommentRanges(text, node.end));
    ts.forEachChild(node, visit);
  };
  visit(file);
  take(ts.getLeadingCommentRanges(text, file.endOfFileToken.pos));
  return [...seen.values()];
}

/** The path-like names in a piece of prose, URLs and globs left out. */
export function namesIn(text: string): string[] {
  const prose = text.replace(/\b[a-z][\w+.-]*:\/\/\S+/gi, ' ');
  const names: string[] = [];
  for (const m of prose.matchAll(NAME)) {
    let name = m[0].replace(/[.,;:]+$/, '');
    const next = prose[m.index + m[0].length];
    if (next === '*' || next === '{' || next === '<' || next === '$') continue; // a glob or a template, not a name
    if (next === '…') name = name.replace(/[^/]*$/, ''); // `src/bot/…`: the folder before the ellipsis
    if (name === '' || !/[/.]/.test(name)) continue;
    names.push(name);
  }
  return names;
}

export interface KnownNames {
  /** Every path and folder of the repository, whole. */
  paths: ReadonlySet<string>;
  /** Every tail of them ("ports/store.ts", "store.ts"), and of the files of the cited packages. */
  suffixes: ReadonlySet<string>;
  /** Names that are not files of the repository: package names, runtime file names, documents beside it. */
  others: ReadonlySet<string>;
  /** Ignored output folders (dist/, data/): what is named under them exists only at run time. */
  outputs: readonly string[];
}

/**
 * Whether a name names something: a path from the root (`src/…`), or the end of one
 * (`ports/store.ts`, `store.ts`, `engine/`). An import-style `.js` name stands for its source.
 */
export function resolves(name: string, known: KnownNames): boolean {
  const bare = name.replace(/^(\.{1,2}\/)+/, '').replace(/\/$/, '');
  if (known.others.has(bare) || known.outputs.some((o) => bare === o || bare.startsWith(`${o}/`))) return true;
  const forms = [bare];
  if (/\.js$/.test(bare)) forms.push(bare.replace(/\.js$/, '.ts'), bare.replace(/\.js$/, '.tsx'));
  const rooted = new RegExp(`^(?:${ROOTS})(?:/|$)`).test(bare) && !name.startsWith('.');
  return forms.some((f) => (rooted ? known.paths.has(f) : known.suffixes.has(f)));
}

/** Every path and folder of a list of files, whole and by every run of its parts ("ports/store.ts", "store.ts", "engine"). */
export function pathIndex(
  files: readonly string[],
  paths = new Set<string>(),
  suffixes = new Set<string>(),
): { paths: Set<string>; suffixes: Set<string> } {
  for (const file of files) {
    const parts = file.split('/');
    for (let end = parts.length; end > 0; end--) paths.add(parts.slice(0, end).join('/'));
    for (let start = 0; start < parts.length; start++)
      for (let end = parts.length; end > start; end--) suffixes.add(parts.slice(start, end).join('/'));
  }
  return { paths, suffixes };
}
