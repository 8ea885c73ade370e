// Finds a control by action_id, so the desk only sends actions on controls that are there, as a Slack client
// can only press what it draws.

export interface FoundControl {
  element: Record<string, unknown>;
  /** The block's block_id (Slack makes one up when the block has none). */
  blockId: string | undefined;
}

export function findControl(blocks: unknown, actionId: string): FoundControl | undefined {
  if (!Array.isArray(blocks)) return undefined;
  for (const block of blocks as Record<string, unknown>[]) {
    if (typeof block !== 'object' || block === null) continue;
    const candidates = [
      ...(Array.isArray(block.elements) ? (block.elements as unknown[]) : []),
      block.accessory,
      block.element,
    ];
    const element = candidates.find(
      (e): e is Record<string, unknown> =>
        typeof e === 'object' && e !== null && (e as Record<string, unknown>).action_id === actionId,
    );
    if (element) return { element, blockId: typeof block.block_id === 'string' ? block.block_id : undefined };
  }
  return undefined;
}
