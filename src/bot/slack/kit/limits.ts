/**
 * Block Kit's size limits, from Slack's Block Kit reference. Builders cut text to these; Slack
 * refuses a whole message or view (invalid_blocks) when one field is over.
 */
export const LIMITS = {
  /** Top-level `text` of a message (notification fallback); Slack truncates past 40,000. */
  messageText: 4_000,
  messageBlocks: 50,
  viewBlocks: 100,
  sectionText: 3_000,
  sectionFields: 10,
  sectionFieldText: 2_000,
  headerText: 150,
  contextElements: 10,
  contextText: 3_000,
  actionsElements: 25,
  buttonText: 75,
  buttonValue: 2_000,
  buttonUrl: 3_000,
  optionText: 75,
  optionValue: 150,
  optionDescription: 75,
  selectOptions: 100,
  optionGroupLabel: 75,
  placeholder: 150,
  inputLabel: 2_000,
  inputHint: 2_000,
  plainTextInputMax: 3_000,
  modalTitle: 24,
  modalButton: 24,
  privateMetadata: 3_000,
  actionId: 255,
  blockId: 255,
  callbackId: 255,
  confirmTitle: 100,
  confirmText: 300,
  confirmButton: 30,
  /** Our own bound for one field error message under an input. */
  fieldError: 300,
} as const;
