// A delegation in words, for `/desk delegate` and App Home.
import type { Delegation } from '../../domain/delegation.js';
import { slackDate } from '../kit/format.js';
import { mention } from '../kit/mrkdwn.js';
import { timeLeftText } from '../home/time-left.js';

/** "<@Ben> approves in your place until <date> (6 d left)". */
export function delegateLine(d: Delegation, now: number): string {
  return `${mention(d.delegate)} approves in your place until ${slackDate(d.until)} (${timeLeftText(d.until, now)})`;
}

/** "You approve in place of <@Ana> until <date> (6 d left)". */
export function actingDelegateLine(d: Delegation, now: number): string {
  return `You approve in place of ${mention(d.approver)} until ${slackDate(d.until)} (${timeLeftText(d.until, now)})`;
}
