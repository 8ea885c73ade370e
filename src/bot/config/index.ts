export type { Config, SlackConfig, DeskPeople, ApprovalSettings, ExchangeConfig, LogLevelName } from './config.js';
export { LOG_LEVELS } from './config.js';
export { ConfigError, type ConfigProblem } from './config-error.js';
export { loadConfig, type LoadConfigOptions } from './load-config.js';
export { SLACK_USER_ID, SLACK_CHANNEL_ID, SECRET_VARIABLES, envShape, envSchema } from './env-schema.js';
