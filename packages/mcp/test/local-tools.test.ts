import { openMemoryEngine } from './helpers.js';
import { describeToolContract } from './tool-contract.js';

describeToolContract('the local engine', openMemoryEngine);
