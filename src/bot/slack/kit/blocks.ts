/**
 * Small constructors for Block Kit objects that apply the limits in limits.ts, so no builder can
 * produce a block Slack would refuse. Text handed to `md` must already be escaped mrkdwn.
 */
import type { types } from '@slack/bolt';
import { LIMITS } from './limits.js';
import { cutPlain, escapeMrkdwn } from './mrkdwn.js';
import { moreNote } from './more-note.js';
import { visibleText } from './display-text.js';

export type KnownBlock = types.KnownBlock;
export type ModalView = types.ModalView;
export type HomeView = types.HomeView;
export type Button = types.Button;
export type PlainTextOption = types.PlainTextOption;
export type PlainTextElement = types.PlainTextElement;
export type MrkdwnElement = types.MrkdwnElement;
export type InputBlockElement = types.InputBlockElement;
export type ConfirmationDialog = types.ConfirmationDialog;

/** A message body: fallback text plus blocks. */
export interface MessagePayload {
  text: string;
  blocks: KnownBlock[];
}

export const plain = (text: string, max: number = LIMITS.sectionText): PlainTextElement => ({
  type: 'plain_text',
  text: cutPlain(text, max),
  emoji: true,
});

/** mrkdwn from already-escaped text, cut to `max`; bidi and zero-width characters dropped here too (display-text.ts). */
export const md = (text: string, max: number = LIMITS.sectionText): MrkdwnElement => ({
  type: 'mrkdwn',
  text: cutMrkdwn(visibleText(text), max),
});

/** Cut trusted mrkdwn without breaking a trailing `<…>` token or `&…;` entity. */
export function cutMrkdwn(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = text.slice(0, max - 1);
  const open = cut.lastIndexOf('<');
  if (open > cut.lastIndexOf('>')) cut = cut.slice(0, open);
  const amp = cut.lastIndexOf('&');
  if (amp > cut.lastIndexOf(';')) cut = cut.slice(0, amp);
  return `${cut}…`;
}

export function section(text: string, blockId?: string): KnownBlock {
  return { type: 'section', text: md(text, LIMITS.sectionText), ...(blockId ? { block_id: blockId } : {}) };
}

/**
 * Someone's free text (a requester's note), as quoted plain text under a bold label: plain_text
 * draws no bold, links, mentions or emoji codes, so a note cannot pass for the message's own
 * fields ("*Destination*") or its status lines; each line carries the quote bar.
 */
export function quotedText(label: string, text: string, max: number): KnownBlock[] {
  const lines = visibleText(text)
    .trim()
    .replace(/\n{3,}/g, '\n\n')
    .split('\n');
  const quoted = lines.map((line) => `│ ${line}`).join('\n');
  return [
    context([`*${escapeMrkdwn(label, 200)}*`]),
    { type: 'section', text: { ...plain(quoted, Math.min(max, LIMITS.sectionText)), emoji: false } },
  ];
}

export function fieldsSection(fields: string[], blockId?: string): KnownBlock {
  return {
    type: 'section',
    fields: fields.slice(0, LIMITS.sectionFields).map((f) => md(f, LIMITS.sectionFieldText)),
    ...(blockId ? { block_id: blockId } : {}),
  };
}

export function header(text: string): KnownBlock {
  return { type: 'header', text: plain(text, LIMITS.headerText) };
}

export function context(texts: string[], blockId?: string): KnownBlock {
  return {
    type: 'context',
    elements: texts.slice(0, LIMITS.contextElements).map((t) => md(t, LIMITS.contextText)),
    ...(blockId ? { block_id: blockId } : {}),
  };
}

export const divider = (): KnownBlock => ({ type: 'divider' });

export function actions(elements: types.ActionsBlockElement[], blockId?: string): KnownBlock {
  return {
    type: 'actions',
    elements: elements.slice(0, LIMITS.actionsElements),
    ...(blockId ? { block_id: blockId } : {}),
  };
}

export interface ButtonOptions {
  style?: 'primary' | 'danger';
  confirm?: ConfirmationDialog;
  url?: string;
}

export function button(text: string, actionId: string, value?: string, opts: ButtonOptions = {}): Button {
  if (value !== undefined && value.length > LIMITS.buttonValue)
    throw new RangeError(`button value over ${LIMITS.buttonValue} characters`);
  return {
    type: 'button',
    text: plain(text, LIMITS.buttonText),
    action_id: actionId,
    ...(value !== undefined ? { value } : {}),
    ...(opts.style ? { style: opts.style } : {}),
    ...(opts.confirm ? { confirm: opts.confirm } : {}),
    ...(opts.url ? { url: opts.url } : {}),
  };
}

export function confirm(
  title: string,
  text: string,
  yes: string,
  no: string,
  style?: 'primary' | 'danger',
): ConfirmationDialog {
  return {
    title: plain(title, LIMITS.confirmTitle),
    text: md(text, LIMITS.confirmText),
    confirm: plain(yes, LIMITS.confirmButton),
    deny: plain(no, LIMITS.confirmButton),
    ...(style ? { style } : {}),
  };
}

/** A select option; an over-long value is a programming error (values are ids we chose). */
export function option(text: string, value: string, description?: string): PlainTextOption {
  if (value.length > LIMITS.optionValue) throw new RangeError(`option value over ${LIMITS.optionValue} characters`);
  return {
    text: plain(text, LIMITS.optionText),
    value,
    ...(description ? { description: plain(description, LIMITS.optionDescription) } : {}),
  };
}

export interface InputOptions {
  optional?: boolean;
  hint?: string;
  dispatchAction?: boolean;
}

export function input(blockId: string, label: string, element: InputBlockElement, opts: InputOptions = {}): KnownBlock {
  return {
    type: 'input',
    block_id: blockId,
    label: plain(label, LIMITS.inputLabel),
    element,
    ...(opts.optional ? { optional: true } : {}),
    ...(opts.hint ? { hint: plain(opts.hint, LIMITS.inputHint) } : {}),
    ...(opts.dispatchAction ? { dispatch_action: true } : {}),
  };
}

export interface TextInputOptions {
  placeholder?: string;
  initial?: string;
  multiline?: boolean;
  maxLength?: number;
  minLength?: number;
  /** Refresh the modal when Enter is pressed in this field (block_actions). */
  dispatchOnEnter?: boolean;
  /** Refresh it also when the person pauses typing (Slack's on_character_entered), without Enter. */
  dispatchWhileTyping?: boolean;
}

export function textInput(actionId: string, opts: TextInputOptions = {}): types.PlainTextInput {
  return {
    type: 'plain_text_input',
    action_id: actionId,
    ...(opts.placeholder ? { placeholder: plain(opts.placeholder, LIMITS.placeholder) } : {}),
    ...(opts.initial !== undefined
      ? { initial_value: cutPlain(opts.initial, opts.maxLength ?? LIMITS.plainTextInputMax) }
      : {}),
    ...(opts.multiline ? { multiline: true } : {}),
    max_length: Math.min(opts.maxLength ?? LIMITS.plainTextInputMax, LIMITS.plainTextInputMax),
    ...(opts.minLength !== undefined ? { min_length: opts.minLength } : {}),
    ...(opts.dispatchWhileTyping
      ? { dispatch_action_config: { trigger_actions_on: ['on_enter_pressed', 'on_character_entered'] } }
      : opts.dispatchOnEnter
        ? { dispatch_action_config: { trigger_actions_on: ['on_enter_pressed'] } }
        : {}),
  };
}

export function staticSelect(
  actionId: string,
  options: PlainTextOption[],
  placeholder: string,
  initialValue?: string,
): types.StaticSelect {
  const list = options.slice(0, LIMITS.selectOptions);
  const initial = initialValue === undefined ? undefined : list.find((o) => o.value === initialValue);
  return {
    type: 'static_select',
    action_id: actionId,
    placeholder: plain(placeholder, LIMITS.placeholder),
    options: list,
    ...(initial ? { initial_option: initial } : {}),
  };
}

export function radioButtons(actionId: string, options: PlainTextOption[], initialValue?: string): types.RadioButtons {
  const initial = initialValue === undefined ? undefined : options.find((o) => o.value === initialValue);
  return { type: 'radio_buttons', action_id: actionId, options, ...(initial ? { initial_option: initial } : {}) };
}

export interface ModalOptions {
  callbackId: string;
  title: string;
  submit?: string;
  close?: string;
  privateMetadata?: string;
  /** Close every stacked modal when this one is submitted. */
  clearOnClose?: boolean;
}

export function modal(blocks: KnownBlock[], opts: ModalOptions): ModalView {
  if (opts.privateMetadata !== undefined && opts.privateMetadata.length > LIMITS.privateMetadata) {
    throw new RangeError(`private_metadata over ${LIMITS.privateMetadata} characters`);
  }
  return {
    type: 'modal',
    callback_id: opts.callbackId,
    title: plain(opts.title, LIMITS.modalTitle),
    ...(opts.submit ? { submit: plain(opts.submit, LIMITS.modalButton) } : {}),
    close: plain(opts.close ?? 'Cancel', LIMITS.modalButton),
    blocks: fitBlocks(blocks, LIMITS.viewBlocks, `a view holds at most ${LIMITS.viewBlocks} blocks.`),
    ...(opts.privateMetadata !== undefined ? { private_metadata: opts.privateMetadata } : {}),
    ...(opts.clearOnClose ? { clear_on_close: true } : {}),
  };
}

/** Blocks for a message, at most Slack's 50. */
export function message(text: string, blocks: KnownBlock[]): MessagePayload {
  return {
    text: cutMrkdwn(visibleText(text), LIMITS.messageText),
    blocks: fitBlocks(blocks, LIMITS.messageBlocks, `a message holds at most ${LIMITS.messageBlocks} blocks.`),
  };
}

/**
 * At most `max` blocks. The builders stay under Slack's limits themselves; this is the last
 * resort, and it is not silent: past `max` the last block kept says how many were left out and
 * `where` to see them.
 */
export function fitBlocks(blocks: KnownBlock[], max: number, where: string): KnownBlock[] {
  if (blocks.length <= max) return blocks;
  return [...blocks.slice(0, max - 1), context([moreNote(blocks.length - (max - 1), where)])];
}

/** The SANDBOX banner that every approval-channel post carries when the exchange is the sandbox. */
export function sandboxBanner(blockId: string): KnownBlock {
  return context([':test_tube: *SANDBOX*: a local test exchange, no real funds move.'], blockId);
}

/** The payload with the SANDBOX banner first when running against the sandbox (thread posts, DMs). */
export function withSandboxBanner(payload: MessagePayload, sandbox: boolean, blockId: string): MessagePayload {
  if (!sandbox || payload.blocks[0]?.block_id === blockId) return payload;
  return message(payload.text.startsWith('[SANDBOX]') ? payload.text : `[SANDBOX] ${payload.text}`, [
    sandboxBanner(blockId),
    ...payload.blocks,
  ]);
}

export { escapeMrkdwn };
