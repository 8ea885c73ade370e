/**
 * The words under a cut list: how many were left out and where to see them. Its own file so the
 * Block Kit constructors (blocks.ts, for their last-resort block cuts) and cut-lists.ts share it.
 */
export function moreNote(left: number, where: string): string {
  return `…and ${left} more, not shown here: ${where}`;
}
