// Block Kit as the page receives it, read defensively (anything may be missing or undrawable); only the
// fields the renderer reads are named.

export interface TextObject {
  type: 'plain_text' | 'mrkdwn';
  text: string;
  emoji?: boolean;
  verbatim?: boolean;
}

export interface KitOption {
  text: TextObject;
  value?: string;
  description?: TextObject;
  url?: string;
}

export interface OptionGroup {
  label: TextObject;
  options: KitOption[];
}

export interface Confirm {
  title?: TextObject;
  text?: TextObject;
  confirm?: TextObject;
  deny?: TextObject;
  style?: 'primary' | 'danger';
}

/** Any element (button, select, input …): its type plus whatever fields it carries. */
export interface KitElement {
  type: string;
  action_id?: string;
  [field: string]: unknown;
}

export interface KitBlock {
  type: string;
  block_id?: string;
  [field: string]: unknown;
}

export const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

export function asText(v: unknown): TextObject | undefined {
  return isRecord(v) && (v.type === 'plain_text' || v.type === 'mrkdwn') && typeof v.text === 'string'
    ? (v as unknown as TextObject)
    : undefined;
}

export function asElement(v: unknown): KitElement | undefined {
  return isRecord(v) && typeof v.type === 'string' ? (v as KitElement) : undefined;
}

export function asBlocks(v: unknown): KitBlock[] {
  return Array.isArray(v) ? v.filter((b): b is KitBlock => isRecord(b) && typeof b.type === 'string') : [];
}

/** A block's element list (actions, context), typed entries only. */
export function asList(v: unknown): KitElement[] {
  return Array.isArray(v) ? v.map(asElement).filter((e): e is KitElement => e !== undefined) : [];
}

export function asOption(v: unknown): KitOption | undefined {
  return isRecord(v) && asText(v.text) ? (v as unknown as KitOption) : undefined;
}

export function asOptions(v: unknown): KitOption[] {
  return Array.isArray(v) ? v.map(asOption).filter((o): o is KitOption => o !== undefined) : [];
}

export function asOptionGroups(v: unknown): OptionGroup[] {
  if (!Array.isArray(v)) return [];
  return v
    .filter((g): g is OptionGroup => isRecord(g) && asText(g.label) !== undefined && Array.isArray(g.options))
    .map((g) => ({ label: g.label, options: asOptions(g.options) }));
}

export function allOptions(element: KitElement): KitOption[] {
  return [...asOptions(element.options), ...asOptionGroups(element.option_groups).flatMap((g) => g.options)];
}

export function asConfirm(v: unknown): Confirm | undefined {
  return isRecord(v) ? v : undefined;
}

/** Plain words of a text object (labels, titles, option names). */
export const textOf = (v: unknown): string => asText(v)?.text ?? '';
