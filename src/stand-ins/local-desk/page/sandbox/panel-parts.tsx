/** The pieces every sandbox form uses: a section, a labelled field, an operation with its result beside it. */
/** A button that runs one sandbox operation and says, beside it, whether the sandbox took it. */
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import type { Ack } from '../../protocol.js';

/** A decimal string as the sandbox takes it: digits and one point, no sign, no exponent. */
export const DECIMAL = /^\d+(\.\d+)?$/;

export function useOp(after: () => Promise<void>) {
  const [result, setResult] = useState<{ ok: boolean; text: string }>();
  const [busy, setBusy] = useState(false);
  const run = async (op: () => Promise<Ack>, done: string) => {
    setBusy(true);
    setResult(undefined);
    const ack = await op();
    setBusy(false);
    setResult(ack.ok ? { ok: true, text: done } : { ok: false, text: ack.error });
    await after();
  };
  return { run, busy, result };
}

export function OpResult({ result }: { result?: { ok: boolean; text: string } }) {
  if (!result) return null;
  return result.ok ? (
    <div class="op-done" role="status">
      {result.text}
    </div>
  ) : (
    <div class="action-error" role="alert">
      {result.text}
    </div>
  );
}

export function PanelSection({ title, children }: { title: string; children: ComponentChildren }) {
  return (
    <div class="panel-section">
      <h3>{title}</h3>
      {children}
    </div>
  );
}

/** A labelled control: the label names it by its `for`, so the control's own value never joins its name. */
export function Field({ id, label, children }: { id: string; label: string; children: ComponentChildren }) {
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {children}
    </div>
  );
}
