/**
 * The response builders of weather.php, in response order (each builder's
 * fields follow the previous one's; `elapsed_ms` comes last). A new field
 * group is a builder (./contract.ts) added here; the service, the router and
 * the routes need no change.
 */
import { baseBuilder } from './base.js';
import { camsBuilder } from './cams.js';
import { coastalBuilder } from './coastal.js';
import type { FieldBuilder } from './contract.js';
import { developerBuilder } from './developer.js';
import { soilBuilder } from './soil.js';

export const BUILDERS: readonly FieldBuilder[] = [baseBuilder, developerBuilder, camsBuilder, coastalBuilder, soilBuilder];
