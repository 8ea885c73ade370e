/** Every migration, in the order they apply. Append new ones; never edit or remove a released one. */
import type { Migration } from './migration.js';
import { initial } from './0001-initial.js';
import { stepUp } from './0002-step-up.js';

export type { Migration };

export const MIGRATIONS: readonly Migration[] = [initial, stepUp];
