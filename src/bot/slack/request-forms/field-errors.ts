/**
 * Modal validation results. Errors are keyed by the input's block_id, in plain words, ready for
 * `ack({ response_action: 'errors', errors })`.
 */
export type FieldErrors = Record<string, string>;

export type Checked<T> = { ok: true; value: T } | { ok: false; errors: FieldErrors };

export const valid = <T>(value: T): Checked<T> => ({ ok: true, value });
export const invalid = <T = never>(errors: FieldErrors): Checked<T> => ({ ok: false, errors });
