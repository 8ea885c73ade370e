// The page's requests to the local desk's server. Every answer is an Ack, failures included (never a
// throw), so each control shows it where the person acted.
import { ROUTES, type Ack, type Answers, type Requests, type SandboxOps, type SandboxState } from '../../protocol.js';

async function postJson<T extends Ack>(path: string, body: unknown): Promise<T> {
  try {
    const res = await fetch(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return (await readAck(res)) as T;
  } catch (err) {
    return {
      ok: false,
      error: `The local desk did not answer (${err instanceof Error ? err.message : String(err)}).`,
    } as T;
  }
}

/** The server's Ack when it sent one; otherwise the HTTP status in words. */
async function readAck(res: Response): Promise<Ack> {
  const body: unknown = await res.json().catch(() => undefined);
  if (typeof body === 'object' && body !== null && typeof (body as Ack).ok === 'boolean') return body as Ack;
  return res.ok
    ? { ok: true }
    : { ok: false, error: `The local desk answered HTTP ${res.status} ${res.statusText}`.trim() };
}

export function send<K extends keyof Requests>(name: K, body: Requests[K]): Promise<Answers[K]> {
  return postJson<Answers[K]>(ROUTES.api + name, body);
}

export async function readSandbox(): Promise<{ ok: true; state: SandboxState } | { ok: false; error: string }> {
  try {
    const res = await fetch(ROUTES.sandbox);
    if (!res.ok) return { ok: false, error: `The sandbox answered HTTP ${res.status}` };
    return { ok: true, state: (await res.json()) as SandboxState };
  } catch (err) {
    return { ok: false, error: `The sandbox did not answer (${err instanceof Error ? err.message : String(err)}).` };
  }
}

export function sandboxOp<K extends keyof SandboxOps>(op: K, body: SandboxOps[K]): Promise<Ack> {
  return postJson<Ack>(`${ROUTES.sandbox}/${op}`, body);
}
