/**
 * state.values and block_actions payloads as Slack sends them, assembled by the page from the
 * bot's own modals (the bot reads them with src/bot/slack/kit/view-state.ts: both sides meet here).
 */
import { describe, expect, it } from 'vitest';
import {
  actionPayload,
  clientErrors,
  REQUIRED_FIELD,
  stateKey,
  stateValues,
  statefulElements,
  type ElementState,
} from '../../../../../src/stand-ins/local-desk/page/blocks/state-values.js';
import { fieldValue } from '../../../../../src/bot/slack/kit/view-state.js';
import { dynamicBlockId, INPUT } from '../../../../../src/bot/slack/kit/slack-ids.js';
import { choiceView, cryptoView, DESTINATIONS, walletModal } from '../../support/bot-views.js';

const entered = (pairs: [string, string, ElementState][]) => new Map(pairs.map(([b, a, s]) => [stateKey(b, a), s]));

describe('state.values from the crypto withdrawal modal', () => {
  const view = cryptoView({ selectedEntryId: 11, destinations: DESTINATIONS });
  const btc = (view.blocks[1] as { element: { options: { value: string }[] } }).element.options[0];

  it("lists every stateful input with Slack's empty values before anything is typed", () => {
    expect(stateValues(view.blocks, new Map())).toEqual({
      [INPUT.withdrawEntry]: { [INPUT.withdrawEntry]: { type: 'static_select', selected_option: btc } },
      [dynamicBlockId.withdrawDestination(11)]: {
        [INPUT.withdrawDestination]: { type: 'static_select', selected_option: null },
      },
      [INPUT.withdrawAmount]: { [INPUT.withdrawAmount]: { type: 'plain_text_input', value: null } },
      [INPUT.withdrawPurpose]: { [INPUT.withdrawPurpose]: { type: 'plain_text_input', value: null } },
      [INPUT.withdrawNote]: { [INPUT.withdrawNote]: { type: 'plain_text_input', value: null } },
    });
  });

  it('carries what was typed and chosen, which the bot reads back with its own fieldValue', () => {
    const cold = (
      view.blocks.find((b) => b.block_id === dynamicBlockId.withdrawDestination(11)) as {
        element: { options: unknown[] };
      }
    ).element.options[0];
    const values = stateValues(
      view.blocks,
      entered([
        [
          dynamicBlockId.withdrawDestination(11),
          INPUT.withdrawDestination,
          { type: 'static_select', selected_option: cold as never },
        ],
        [INPUT.withdrawAmount, INPUT.withdrawAmount, { type: 'plain_text_input', value: '0.25' }],
      ]),
    );
    expect(fieldValue(values, INPUT.withdrawEntry)).toBe('11');
    expect(fieldValue(values, dynamicBlockId.withdrawDestination(11), INPUT.withdrawDestination)).toBe('d1');
    expect(fieldValue(values, INPUT.withdrawAmount)).toBe('0.25');
    expect(fieldValue(values, INPUT.withdrawNote)).toBeUndefined();
  });

  it('ignores an entry of another type (the element changed: Slack starts it over)', () => {
    const values = stateValues(
      view.blocks,
      entered([[INPUT.withdrawAmount, INPUT.withdrawAmount, { type: 'static_select', selected_option: null }]]),
    );
    expect(values[INPUT.withdrawAmount]).toEqual({ [INPUT.withdrawAmount]: { type: 'plain_text_input', value: null } });
  });

  it("refuses a submission with a required field empty, as Slack's client does", () => {
    expect(clientErrors(view.blocks, new Map())).toEqual({
      [dynamicBlockId.withdrawDestination(11)]: REQUIRED_FIELD,
      [INPUT.withdrawAmount]: REQUIRED_FIELD,
    });
  });
});

describe('radio buttons and external selects (counterparty modal)', () => {
  it('reports radios and the wallet search as selected_option, null until chosen', () => {
    const values = stateValues(walletModal().blocks, new Map());
    expect(values[INPUT.cpEntityType]).toEqual({
      [INPUT.cpEntityType]: { type: 'radio_buttons', selected_option: null },
    });
    expect(values[INPUT.cpWallet]).toEqual({ [INPUT.cpWallet]: { type: 'external_select', selected_option: null } });
  });
});

describe('block_actions payloads', () => {
  it('a button carries its text, value and style', () => {
    const [placedButton] = choiceView().blocks.flatMap((b) =>
      'elements' in b && b.type === 'actions' ? b.elements : [],
    );
    expect(
      actionPayload(placedButton as never, 'withdraw_choice', 'withdraw_choose_crypto', '1714572180.000000'),
    ).toEqual({
      type: 'button',
      block_id: 'withdraw_choice',
      action_id: 'withdraw_choose_crypto',
      action_ts: '1714572180.000000',
      text: { type: 'plain_text', text: 'Crypto', emoji: true },
      value: 'crypto',
    });
  });

  it('a select carries the new selected_option', () => {
    const view = cryptoView();
    const [entry] = statefulElements(view.blocks);
    const option = (entry!.element.options as unknown[])[1];
    const payload = actionPayload(entry!.element, entry!.blockId, entry!.actionId, '1.000000', {
      type: 'static_select',
      selected_option: option as never,
    });
    expect(payload).toMatchObject({
      type: 'static_select',
      block_id: INPUT.withdrawEntry,
      action_id: INPUT.withdrawEntry,
      selected_option: option,
    });
  });
});
