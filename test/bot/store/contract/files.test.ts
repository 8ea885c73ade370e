/** The ports' contract on the file store (DATA_DIR). */
import { auditContract } from './audit.js';
import { fileKind } from './kinds.js';
import { kvContract } from './kv.js';
import { repositoryContract } from './repository.js';

repositoryContract(fileKind);
kvContract(fileKind);
auditContract(fileKind);
