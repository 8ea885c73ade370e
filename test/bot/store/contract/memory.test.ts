/** The Repository contract on the in-memory version the engine tests use (it has no key-value store or audit chain). */
import { memoryKind } from './kinds.js';
import { repositoryContract } from './repository.js';

repositoryContract(memoryKind);
