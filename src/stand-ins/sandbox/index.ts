// The sandbox's public surface; only the composition root, the demo and tests import it.
export { startSandbox, type Sandbox, type SandboxOptions } from './server.js';
export { openSandbox, IN_PROCESS_ORIGIN, type InProcessSandbox } from './in-process.js';
export type { SandboxCommit } from './core.js';
export { createSandboxClock, type SandboxClock, type SandboxClockOptions } from './sandbox-clock.js';
export type { SandboxControl, AccessLogEntry, InjectDepositInput, AddressChange } from './control.js';
export { CONTROL_PREFIX } from './control-http.js';
export { FAULT_KINDS, type FaultKind, type FaultRule } from './faults.js';
export type { KeySpec } from './keys.js';
export { DEFAULT_ACCOUNT } from './seed.js';
export { SANDBOX_BANNER } from './banner.js';
export * as SANDBOX_TIMINGS from './timings.js';
export { isFromThisMachine } from './local-only.js';
export { decodeSandbox } from './persist.js';
