import type { KitElement } from '../kit.js';

/** Where an element sits in an input block: the ids that label and describe it. */
export interface Field {
  inputId: string;
  labelId: string;
  /** Space-separated ids of the error and hint. */
  describedBy?: string;
  invalid: boolean;
}

export interface ElementProps {
  element: KitElement;
  blockId: string;
  actionId: string;
  /** Whether a change sends a block action: always in actions and accessories, in input blocks only with dispatch_action. */
  dispatch: boolean;
  field?: Field;
}
