// The sandbox's state for the panel: read on open, every few seconds (its clock moves) and after changes.
import { useCallback, useEffect, useState } from 'preact/hooks';
import type { SandboxState } from '../../protocol.js';
import { readSandbox } from '../live/api.js';

const POLL_MS = 3_000;

export function useSandbox(version: number): { state?: SandboxState; error?: string; refresh: () => Promise<void> } {
  const [read, setRead] = useState<{ state?: SandboxState; error?: string }>({});
  const refresh = useCallback(async () => {
    const r = await readSandbox();
    setRead((prev) => (r.ok ? { state: r.state } : { ...prev, error: r.error }));
  }, []);
  useEffect(() => {
    void refresh();
  }, [refresh, version]);
  useEffect(() => {
    const t = setInterval(() => void refresh(), POLL_MS);
    return () => clearInterval(t);
  }, [refresh]);
  return { ...read, refresh };
}
