// The page's JSON bodies checked before anything reaches bot or sandbox, each schema tied to its protocol.ts type.
import { z } from 'zod';
import {
  PANEL_FAULT_TARGETS,
  PANEL_FAULTS,
  type PanelFault,
  type PanelFaultTarget,
  type Requests,
  type SandboxOps,
} from '../protocol.js';

const person = z.string().min(1).max(40);
const id = z.string().min(1).max(200);
const stateValues = z.record(z.string(), z.record(z.string(), z.record(z.string(), z.unknown())));

export const REQUEST_BODIES = {
  command: z.object({ as: person, channel: id, text: z.string().max(4_000) }),
  action: z.object({
    as: person,
    container: z.discriminatedUnion('type', [
      z.object({ type: z.literal('message'), channel: id, ts: id }),
      z.object({ type: z.literal('view'), viewId: id }),
      z.object({ type: z.literal('home') }),
    ]),
    action: z.looseObject({ action_id: id }),
    values: stateValues.optional(),
  }),
  submit: z.object({ as: person, viewId: id, values: stateValues }),
  close: z.object({ as: person, viewId: id }),
  suggest: z.object({ as: person, viewId: id, blockId: id, actionId: id, value: z.string().max(200) }),
  home: z.object({ as: person }),
} satisfies { [K in keyof Requests]: z.ZodType<Requests[K]> };

export type RequestName = keyof typeof REQUEST_BODIES;

export function isRequestName(name: string): name is RequestName {
  return Object.hasOwn(REQUEST_BODIES, name);
}

/** A decimal string as the sandbox takes money: digits, at most one point, no sign or exponent. */
const decimal = z.string().regex(/^\d{1,20}(\.\d{1,18})?$/, 'a decimal number such as 0.5');
const faults = Object.keys(PANEL_FAULTS) as [PanelFault, ...PanelFault[]];
const targets = Object.keys(PANEL_FAULT_TARGETS) as [PanelFaultTarget, ...PanelFaultTarget[]];

export const SANDBOX_OP_BODIES = {
  // Up to 30 days at once: far enough for any status, near enough that a typo is not a year.
  advance: z.object({
    ms: z
      .number()
      .int()
      .min(1)
      .max(30 * 86_400_000),
  }),
  deposit: z.object({ currency: z.string().min(1).max(40), amount: decimal, needsCounterpartyInfo: z.boolean() }),
  price: z.object({ symbol: z.string().min(1).max(20), price: decimal }),
  fault: z.object({ fault: z.enum(faults), on: z.enum(targets), times: z.number().int().min(1).max(1_000).optional() }),
  'clear-faults': z.object({}).strict(),
} satisfies { [K in keyof SandboxOps]: z.ZodType<SandboxOps[K]> };

export type SandboxOpName = keyof typeof SANDBOX_OP_BODIES;

export function isSandboxOpName(name: string): name is SandboxOpName {
  return Object.hasOwn(SANDBOX_OP_BODIES, name);
}
