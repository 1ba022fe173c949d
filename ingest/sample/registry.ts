/**
 * The products of the sample dataset, in build order (a step may use what
 * earlier ones published). A product's sample is a step file under
 * ./products/ and one line here.
 */
import { camsSample } from './products/cams.js';
import { demSample } from './products/dem.js';
import { marineSample } from './products/marine.js';
import { nwpSample } from './products/nwp.js';
import { sm100Sample } from './products/sm100.js';
import { soilSample } from './products/soil.js';
import { uvSample } from './products/uv.js';
import type { SampleStep } from './step.js';

export const SAMPLE_STEPS: readonly SampleStep[] = [nwpSample, demSample, camsSample, marineSample, soilSample, uvSample, sm100Sample];
