// The sandbox panel's server side, over a port the composition implements on the sandbox's control; the
// local desk knows nothing of the sandbox itself.
import type { SandboxOps, SandboxState } from '../protocol.js';
import { SANDBOX_OP_BODIES, type SandboxOpName } from './request-bodies.js';

/** The sandbox as the panel drives it; every operation may throw a message meant for a person. */
export interface PanelSandbox {
  state(): SandboxState;
  advance(op: SandboxOps['advance']): void;
  deposit(op: SandboxOps['deposit']): void;
  price(op: SandboxOps['price']): void;
  fault(op: SandboxOps['fault']): void;
  clearFaults(): void;
}

/** Check the body, run the operation, answer the sandbox's state after it. */
export function runSandboxOp(sandbox: PanelSandbox, name: SandboxOpName, body: unknown): SandboxState {
  switch (name) {
    case 'advance':
      sandbox.advance(SANDBOX_OP_BODIES.advance.parse(body));
      break;
    case 'deposit':
      sandbox.deposit(SANDBOX_OP_BODIES.deposit.parse(body));
      break;
    case 'price':
      sandbox.price(SANDBOX_OP_BODIES.price.parse(body));
      break;
    case 'fault':
      sandbox.fault(SANDBOX_OP_BODIES.fault.parse(body));
      break;
    case 'clear-faults':
      SANDBOX_OP_BODIES['clear-faults'].parse(body);
      sandbox.clearFaults();
      break;
  }
  return sandbox.state();
}
