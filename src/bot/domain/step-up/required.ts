/**
 * Which approvals ask for a one-time code: those of a request whose policy rule says `step_up: true`
 * (frozen with the rule in its snapshot), or, without a policy file, of a request worth at least
 * STEP_UP_AT_LEAST US dollars, valued as the policy values requests (domain/valuation.ts, frozen at
 * request time). A request whose value in USD is not known asks for a code: never taken as small.
 */
import type { Snapshot } from '../request.js';
import type { RequestRecord } from '../record.js';
import { principalOf, valueAtLeast } from '../valuation.js';

/** The currency STEP_UP_AT_LEAST is written in. */
export const STEP_UP_CURRENCY = 'USD';

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
export function stepUpRequired(request: Pick<RequestRecord, 'snapshot'>, settings: StepUpSettings): boolean {
  const { snapshot } = request;
  if (snapshot.rule?.stepUp) return true;
  if (settings.atLeastUsd === undefined || principalOf(snapshot) === undefined) return false;
  return valueAtLeast(snapshot, settings.atLeastUsd, STEP_UP_CURRENCY) ?? true;
}

/** The currencies a new request must be priced in for stepUpRequired to judge it (with the policy's own). */
export function stepUpCurrencies(settings: StepUpSettings, snapshot: Snapshot): string[] {
  return settings.atLeastUsd !== undefined && principalOf(snapshot) !== undefined ? [STEP_UP_CURRENCY] : [];
}
