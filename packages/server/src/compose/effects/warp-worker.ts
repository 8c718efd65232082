/** The warp's worker thread (started by warp-bands.ts): runs bands of rows until terminated. */
import { workerData } from 'node:worker_threads';
import { type BandWorkerData, serveBands } from './warp-bands.ts';

serveBands(workerData as BandWorkerData);
