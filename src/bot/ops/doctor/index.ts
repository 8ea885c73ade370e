/** The go-live check's parts: runtime/doctor-cli.ts wires them to the configuration. */
export { runDoctor, type DoctorCheck, type Outcome } from './doctor.js';
export { slackChecks, type SlackCall, type SlackSetup } from './slack-checks.js';
export { exchangeChecks, type ExchangeProbe } from './exchange-checks.js';
export { storeCheck, type StoreProbe } from './store-check.js';
