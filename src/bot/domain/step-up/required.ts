/**
 * Which approvals ask for a one-time code. Without a policy file: requests worth at least
 * STEP_UP_AT_LEAST US dollars, valued as the policy values requests. A request whose value is not
 * known asks for a code: a value nobody could establish is never taken as small.
 */
import { gte } from '../money.js';
import type { RequestRecord } from '../record.js';

export interface StepUpSettings {
  /** STEP_UP_AT_LEAST: a decimal string in USD; undefined: no request asks by value. */
  atLeastUsd: string | undefined;
}

export const NO_STEP_UP: StepUpSettings = { atLeastUsd: undefined };

/** What the Slack layer hands the engine once a code was accepted for this approval: the code's time step. */
export interface StepUpProof {
  step: number;
}

/** True when approving `request` needs a valid one-time code. */
export function stepUpRequired(request: RequestRecord, settings: StepUpSettings): boolean {
  if (settings.atLeastUsd === undefined) return false;
  const value = valueInUsd(request);
  return value === undefined || gte(value, settings.atLeastUsd);
}

/** The request's value in USD frozen in its snapshot (the policy's valuation), if any. */
function valueInUsd(_request: RequestRecord): string | undefined {
  // The valuation lands with the policy (issue 23): until then no request has one.
  return undefined;
}
