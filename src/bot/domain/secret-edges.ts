// Where secrets may go, shared by configuration and operator tools: which URLs may carry them and
// how a file holding one must be kept.

/** localhost, 127.0.0.0/8 and [::1]: names and addresses that never leave this machine. */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

/** https:// anywhere; plain http:// only to this machine (a local sandbox or stand-in). */
export function safeForSecrets(url: URL): boolean {
  return url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname));
}

/**
 * Why a secret file is too open, as ssh judges a key: no group/other access, except group-read when
 * another user owns it (root-mounted container secrets). Undefined when fine or without POSIX owners.
 */
export function secretFileExposure(
  path: string,
  file: { mode: number; uid: number },
  processUid: number | undefined,
): string | undefined {
  if (processUid === undefined) return undefined;
  const mode = (file.mode & 0o777).toString(8).padStart(3, '0');
  if (file.uid === processUid && (file.mode & 0o077) !== 0) {
    return `${path} can be read by group or others (mode ${mode}): a secret must be readable by its owner only; chmod 600 ${path}`;
  }
  if ((file.mode & 0o007) !== 0)
    return `${path}: every user of this machine can read it (mode ${mode}); chmod o-rwx ${path}`;
  return undefined;
}
