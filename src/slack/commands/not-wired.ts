/**
 * Placeholder answer for the parts that need the approval engine (wired in a later pass). Each
 * use is listed in the Slack layer's report so none is forgotten.
 */
export function notWiredText(what: string): string {
  return `:construction: ${what} is not wired yet: it needs the approval engine. Nothing was changed.`;
}
