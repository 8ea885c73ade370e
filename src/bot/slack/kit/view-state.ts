/**
 * Reading a modal's `view.state.values` ({ [block_id]: { [action_id]: element state } }). Inputs
 * use one id for block and action (slack-ids.ts INPUT), dynamic blocks a "base:suffix" block_id.
 */
type ElementState = { type?: string; value?: string | null; selected_option?: { value: string } | null };
export type StateValues = Record<string, Record<string, ElementState>>;

/** The typed text, or the selected option's value, of an input; undefined when empty. */
export function fieldValue(
  values: StateValues | undefined,
  blockId: string,
  actionId: string = baseOf(blockId),
): string | undefined {
  const el = values?.[blockId]?.[actionId];
  if (!el) return undefined;
  const v = el.selected_option?.value ?? el.value ?? undefined;
  return v === null || v === undefined || v === '' ? undefined : v;
}

function baseOf(blockId: string): string {
  const i = blockId.indexOf(':');
  return i === -1 ? blockId : blockId.slice(0, i);
}

/** Parse the small JSON we keep in private_metadata; {} when absent or not ours. */
export function readMetadata<T extends object>(text: string | undefined): Partial<T> {
  if (!text) return {};
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === 'object' ? v : {};
  } catch {
    return {};
  }
}
