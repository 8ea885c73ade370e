// Fuzzy wallet-name search ("may return inexact matches"): case and spaces ignored, substrings, and words
// within a small edit distance ("binanse" finds Binance).

function fold(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** Levenshtein distance, two rows. */
export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length]!;
}

/** 0 exact, 1 substring, 2 + distance for near misses, undefined for none; lower is better. */
export function fuzzyScore(query: string, name: string): number | undefined {
  const q = fold(query);
  const n = fold(name);
  if (q === '') return 0;
  if (n === q) return 0;
  if (n.includes(q)) return 1;
  const allowed = Math.max(1, Math.floor(q.length / 4));
  // Compare with the whole name and with every window of the name as long as the query.
  let best = editDistance(q, n);
  for (let i = 0; i + q.length <= n.length; i++) best = Math.min(best, editDistance(q, n.slice(i, i + q.length)));
  return best <= allowed ? 2 + best : undefined;
}

/** Items whose name matches `query`, best match first (stable for ties). */
export function fuzzySearch<T extends { name: string }>(items: readonly T[], query: string): T[] {
  return items
    .map((item, index) => ({ item, index, score: fuzzyScore(query, item.name) }))
    .filter((x): x is { item: T; index: number; score: number } => x.score !== undefined)
    .sort((a, b) => a.score - b.score || a.index - b.index)
    .map((x) => x.item);
}
