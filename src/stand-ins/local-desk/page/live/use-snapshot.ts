// One person's live workspace over an EventSource, each `snapshot` replacing the state. It retries by
// itself; when the server refuses outright, a new one opens after a pause.
import { useEffect, useState } from 'preact/hooks';
import { ROUTES, type Snapshot } from '../../protocol.js';

const RETRY_MS = 1_000;

export interface Live {
  snapshot?: Snapshot;
  connected: boolean;
}

/** `as` unset: the server's default person (the page learns who from `snapshot.me`). */
export function useSnapshot(as: string | undefined): Live {
  const [live, setLive] = useState<Live>({ connected: false });
  useEffect(() => {
    // Another person: nothing of the previous one's view stays on screen.
    setLive({ connected: false });
    let source: EventSource | undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const open = () => {
      source = new EventSource(as ? `${ROUTES.events}?as=${encodeURIComponent(as)}` : ROUTES.events);
      source.addEventListener('open', () => setLive((l) => ({ ...l, connected: true })));
      source.addEventListener('snapshot', (e) => {
        const snapshot = JSON.parse((e as MessageEvent<string>).data) as Snapshot;
        setLive({ snapshot, connected: true });
      });
      source.addEventListener('error', () => {
        setLive((l) => ({ ...l, connected: false }));
        if (source?.readyState === EventSource.CLOSED && !stopped) retry = setTimeout(open, RETRY_MS);
      });
    };
    open();
    return () => {
      stopped = true;
      clearTimeout(retry);
      source?.close();
    };
  }, [as]);
  return live;
}
