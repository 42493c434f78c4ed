/**
 * The one-to-one matching of rows to columns with the largest total weight (Hungarian algorithm,
 * O(n³) for an n×n problem; a rectangular matrix is padded with zeros). Used to map reference
 * speakers to hypothesis speakers for the diarization error rate.
 * @param weights `weights[row][col]` ≥ 0 (e.g. seconds both speakers talk); all rows the same length.
 * @returns `match[row]` = the matched column, or -1 when the row is left unmatched (more rows than columns).
 */
export function matchMaximumWeight(weights: readonly (readonly number[])[]): number[] {
  const rows = weights.length;
  const cols = rows === 0 ? 0 : weights[0]!.length;
  const n = Math.max(rows, cols);
  if (n === 0) return [];
  const max = Math.max(0, ...weights.flat());
  // Minimise cost = max - weight over an n×n matrix (1-based potentials as in the classic formulation).
  const cost = (i: number, j: number) => (i < rows && j < cols ? max - weights[i]![j]! : max);
  const u = new Float64Array(n + 1);
  const v = new Float64Array(n + 1);
  const p = new Int32Array(n + 1); // p[j] = row (1-based) matched to column j
  const way = new Int32Array(n + 1);
  for (let i = 1; i <= n; i += 1) {
    p[0] = i;
    let j0 = 0;
    const minv = new Float64Array(n + 1).fill(Infinity);
    const used = new Uint8Array(n + 1);
    do {
      used[j0] = 1;
      const i0 = p[j0]!;
      let delta = Infinity;
      let j1 = 0;
      for (let j = 1; j <= n; j += 1) {
        if (used[j]) continue;
        const reduced = cost(i0 - 1, j - 1) - u[i0]! - v[j]!;
        if (reduced < minv[j]!) [minv[j], way[j]] = [reduced, j0];
        if (minv[j]! < delta) [delta, j1] = [minv[j]!, j];
      }
      for (let j = 0; j <= n; j += 1) {
        if (used[j]) [u[p[j]!], v[j]] = [u[p[j]!]! + delta, v[j]! - delta];
        else minv[j] = minv[j]! - delta;
      }
      j0 = j1;
    } while (p[j0] !== 0);
    do {
      const j1 = way[j0]!;
      p[j0] = p[j1]!;
      j0 = j1;
    } while (j0 !== 0);
  }
  const match = new Array<number>(rows).fill(-1);
  for (let j = 1; j <= n; j += 1) {
    const row = p[j]! - 1;
    if (row < rows && j - 1 < cols) match[row] = j - 1;
  }
  return match;
}
