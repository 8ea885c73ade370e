/**
 * Walks Block Kit JSON and reports every text over its limit (limits.ts), so tests can assert
 * that no builder produces something Slack would refuse.
 */
import { LIMITS } from '../../../../src/bot/slack/kit/limits.js';

type Json = Record<string, unknown>;

export function limitViolations(blocks: readonly unknown[], maxBlocks: number = LIMITS.messageBlocks): string[] {
  const out: string[] = [];
  if (blocks.length > maxBlocks) out.push(`${blocks.length} blocks > ${maxBlocks}`);
  const text = (o: unknown): string => ((o as Json | undefined)?.text as string | undefined) ?? '';
  const check = (where: string, value: string, max: number) => {
    if (value.length > max) out.push(`${where}: ${value.length} > ${max}`);
  };
  blocks.forEach((raw, i) => {
    const b = raw as Json;
    const at = `block ${i} (${String(b.type)})`;
    if (typeof b.block_id === 'string') check(`${at} block_id`, b.block_id, LIMITS.blockId);
    switch (b.type) {
      case 'section':
        check(`${at} text`, text(b.text), LIMITS.sectionText);
        if (Array.isArray(b.fields)) {
          if (b.fields.length > LIMITS.sectionFields) out.push(`${at}: ${b.fields.length} fields`);
          for (const f of b.fields) check(`${at} field`, text(f), LIMITS.sectionFieldText);
        }
        break;
      case 'header':
        check(`${at} text`, text(b.text), LIMITS.headerText);
        break;
      case 'context':
        if ((b.elements as unknown[]).length > LIMITS.contextElements) out.push(`${at}: too many elements`);
        for (const e of b.elements as unknown[]) check(`${at} element`, text(e), LIMITS.contextText);
        break;
      case 'actions':
        if ((b.elements as unknown[]).length > LIMITS.actionsElements) out.push(`${at}: too many elements`);
        for (const e of b.elements as Json[]) element(`${at}`, e);
        break;
      case 'input':
        check(`${at} label`, text(b.label), LIMITS.inputLabel);
        if (b.hint) check(`${at} hint`, text(b.hint), LIMITS.inputHint);
        element(at, b.element as Json);
        break;
    }
  });
  return out;

  function element(at: string, e: Json) {
    if (typeof e.action_id === 'string') check(`${at} action_id`, e.action_id, LIMITS.actionId);
    if (e.type === 'button') {
      check(`${at} button text`, text(e.text), LIMITS.buttonText);
      if (typeof e.value === 'string') check(`${at} button value`, e.value, LIMITS.buttonValue);
      const c = e.confirm as Json | undefined;
      if (c) {
        check(`${at} confirm title`, text(c.title), LIMITS.confirmTitle);
        check(`${at} confirm text`, text(c.text), LIMITS.confirmText);
      }
    }
    if (e.placeholder) check(`${at} placeholder`, text(e.placeholder), LIMITS.placeholder);
    for (const o of (e.options as Json[] | undefined) ?? []) {
      check(`${at} option text`, text(o.text), LIMITS.optionText);
      check(`${at} option value`, String(o.value), LIMITS.optionValue);
      if (o.description) check(`${at} option description`, text(o.description), LIMITS.optionDescription);
    }
    if (Array.isArray(e.options) && e.options.length > LIMITS.selectOptions)
      out.push(`${at}: ${e.options.length} options`);
  }
}

/** Violations of a modal or home view, including title and buttons. */
export function viewViolations(view: Json): string[] {
  const out = limitViolations(view.blocks as unknown[], LIMITS.viewBlocks);
  const t = (k: string) => ((view[k] as Json | undefined)?.text as string | undefined) ?? '';
  if (t('title').length > LIMITS.modalTitle) out.push(`title ${t('title').length} > ${LIMITS.modalTitle}`);
  if (t('submit').length > LIMITS.modalButton) out.push('submit too long');
  if (t('close').length > LIMITS.modalButton) out.push('close too long');
  if (typeof view.private_metadata === 'string' && view.private_metadata.length > LIMITS.privateMetadata)
    out.push('private_metadata too long');
  return out;
}
