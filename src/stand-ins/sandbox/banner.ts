/** The loud line every sandbox entry point prints, so nobody mistakes simulated funds for real ones. */
export const SANDBOX_BANNER = [
  '==================================================================',
  '  SANDBOX EXCHANGE: simulated funds, simulated chain, no real money',
  '==================================================================',
].join('\n');
