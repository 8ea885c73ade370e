/** Sending an action from an element: busy while the bot answers, a refusal shown under the block. */
import { useState } from 'preact/hooks';
import { useBlockError, useSurface } from './surface.js';

export function useAction(): { run: (action: Record<string, unknown>) => Promise<boolean>; busy: boolean } {
  const surface = useSurface();
  const report = useBlockError();
  const [busy, setBusy] = useState(false);
  const run = async (action: Record<string, unknown>) => {
    setBusy(true);
    report(undefined);
    const ack = await surface.act(action);
    setBusy(false);
    if (!ack.ok) report(ack.error);
    return ack.ok;
  };
  return { run, busy };
}
