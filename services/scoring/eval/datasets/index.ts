import type { Dataset } from '../harness.js';
import { abcd } from './abcd.js';
import { compliBench } from './complibench.js';
import { persuasionForGood } from './persuasionforgood.js';
import { qmsum } from './qmsum.js';

/** Every dataset, in the order they run and print. */
export const DATASETS: readonly Dataset[] = [compliBench, persuasionForGood, qmsum, abcd];
