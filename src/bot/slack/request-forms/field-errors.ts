// Modal validation results keyed by block_id, ready for `ack({ response_action: 'errors', errors })`.
export type FieldErrors = Record<string, string>;

export type Checked<T> = { ok: true; value: T } | { ok: false; errors: FieldErrors };

export const valid = <T>(value: T): Checked<T> => ({ ok: true, value });
export const invalid = <T = never>(errors: FieldErrors): Checked<T> => ({ ok: false, errors });
