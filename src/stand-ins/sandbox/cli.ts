// `npm run sandbox`: the sandbox alone. SANDBOX_PORT (127.0.0.1, default 8080), SANDBOX_PUBLIC_KEY (else a
// key pair is generated and printed), SANDBOX_SEED (default `sandbox`).
import { pathToFileURL } from 'node:url';
import * as secp from '@noble/secp256k1';
import { SCOPES } from '../../bot/exchange/assumptions.js';
import { API_PREFIX } from '../../bot/exchange/protocol.js';
import { parsePrivateKey, publicKeyHex } from '../../bot/exchange/signer.js';
import { SANDBOX_BANNER } from './banner.js';
import { CONTROL_PREFIX } from './control-http.js';
import { startSandbox, type Sandbox } from './server.js';

export { SANDBOX_BANNER };

/** Start the sandbox from environment values; `print` receives every line meant for people. */
export async function runSandboxCli(
  env: Record<string, string | undefined>,
  print: (line: string) => void,
): Promise<Sandbox> {
  const portText = env.SANDBOX_PORT ?? '8080';
  if (!/^\d{1,5}$/.test(portText) || Number(portText) > 65535)
    throw new Error(`SANDBOX_PORT must be a port number, got ${JSON.stringify(portText)}`);
  const seed = env.SANDBOX_SEED ?? 'sandbox';

  let publicKey = env.SANDBOX_PUBLIC_KEY?.trim();
  let generatedPrivate: string | undefined;
  if (!publicKey) {
    // A throwaway key that only this sandbox knows: printing it is the point.
    generatedPrivate = Buffer.from(secp.utils.randomSecretKey()).toString('hex');
    publicKey = publicKeyHex(parsePrivateKey(generatedPrivate));
  }
  const sandbox = await startSandbox({
    port: Number(portText),
    seed,
    keys: [{ publicKeyHex: publicKey, scopes: SCOPES }],
    onRequest: (e) =>
      print(
        `[sandbox] ${e.method} ${e.path} ${e.status === 0 ? '(no answer)' : e.status} ${e.durationMs}ms${e.fault ? ` fault=${e.fault}` : ''}`,
      ),
  });

  print(SANDBOX_BANNER);
  print(`Base URL:        ${sandbox.url}   (API under ${API_PREFIX})`);
  print(`Control surface: ${sandbox.url}${CONTROL_PREFIX}/state`);
  print(`Seed:            ${seed}`);
  print(`Registered key:  ${publicKey}   scopes: ${SCOPES.join(', ')}`);
  if (generatedPrivate) {
    print('Generated a sandbox-only key pair (worthless anywhere else). To point the bot at this sandbox:');
    print(`  EXCHANGE_BASE_URL=${sandbox.url}`);
    print(`  EXCHANGE_PRIVATE_KEY=${generatedPrivate}`);
    print(`  public key: ${publicKey}`);
  }
  return sandbox;
}

const USAGE = `usage: npm run sandbox   (the sandbox exchange on 127.0.0.1 until Ctrl-C)
  SANDBOX_PORT        port (default 8080)
  SANDBOX_PUBLIC_KEY  public key hex to register with every scope; unset: a key pair is generated and printed
  SANDBOX_SEED        seed of the deterministic state (default sandbox)`;

const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (isMain && ['--help', '-h'].some((a) => process.argv.includes(a))) {
  console.log(USAGE);
} else if (isMain) {
  runSandboxCli(process.env, (line) => console.log(line)).then(
    (sandbox) => {
      const stop = () => void sandbox.close().then(() => process.exit(0));
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    },
    (e: unknown) => {
      console.error(`sandbox: ${(e as Error).message}`);
      process.exit(1);
    },
  );
}
