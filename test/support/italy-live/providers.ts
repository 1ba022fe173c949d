/**
 * Every provider of jobs/examples/italy.jobs.json emulated at once, with
 * content dated from the real clock (./content.ts), and the committed file
 * itself pointed at them: each provider root swapped for its emulator, the
 * schedules made to tick every few seconds, ICON-EU's steps cut to those
 * around now, polls and retries made fast. Nothing else of the file changes.
 *
 * The ADS/CDS emulator answers each submission by its dataset: CAMS Europe
 * (netcdf_zip of the pollutants and pollen files for the date asked; the
 * suite's plan adds the 429 and the hold), CAMS global (the total column
 * ozone file of the date and lead hours asked) and ERA5-Land (the soil file
 * of the day asked).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { startAdsEmulator, type AdsEmulator, type AdsJobPlan, type Submission } from '../emulators/ads.js';
import { medDatasets, startMarineEmulator, type MarineEmulator } from '../emulators/copernicus-marine.js';
import { startDwdEmulator, type DwdEmulator } from '../emulators/dwd-opendata.js';
import { lsaSafFiles, startLsaSafEmulator, type LsaSafEmulator } from '../emulators/lsasaf.js';
import { startMeteohubEmulator, type MeteohubEmulator } from '../emulators/meteohub.js';
import { orographyHeights } from '../icon-grib.js';
import { camsFiles, camsGlobalOzoneFile, era5LandFile, iconContent, lsaSafSlots, marineFiles, type IconContent } from './content.js';

export const ADS_KEY = 'ads-live-key-5d81c0';
export const LSA_LOGIN = { user: 'meteopunto-live', password: 'lsa-live-pass-73b1' };
export const ITALY_JOBS = resolve(import.meta.dirname, '../../../jobs/examples/italy.jobs.json');

export interface LiveProviders {
  hub: MeteohubEmulator;
  dwd: DwdEmulator;
  ads: AdsEmulator;
  marine: MarineEmulator;
  lsa: LsaSafEmulator;
  icon: IconContent;
  lsaHours: Date[];
  marineDays: Date[];
  marineFiles: { waves: string; physics: string };
  /** The CAMS files delivered per run day (yyyymmdd), once asked for. */
  camsDelivered: Map<string, string[]>;
  /** The CAMS global ozone file delivered per run day (yyyy-mm-dd), once asked for. */
  ozoneDelivered: Map<string, string>;
  /** italy.jobs.json with the roots swapped, written to `path`; returns it. */
  writeConfig(path: string, tickSeconds: number): string;
  /** Environment the workers need: the credentials the file names. */
  credentials: Record<string, string>;
  close(): Promise<void>;
}

export async function startLiveProviders(dir: string, now: Date, camsPlan: (s: Submission) => Omit<AdsJobPlan, 'result'>): Promise<LiveProviders> {
  mkdirSync(dir, { recursive: true });
  const z = orographyHeights();
  const icon = iconContent(dir, now, z);
  const slots = lsaSafSlots(dir, now);
  const sea = marineFiles(dir, now);
  const camsDelivered = new Map<string, string[]>();
  const ozoneDelivered = new Map<string, string>();

  const hub = await startMeteohubEmulator({ runs: [icon.incomplete] });
  const dwd = await startDwdEmulator({ files: icon.euFiles });
  const lsa = await startLsaSafEmulator({ ...LSA_LOGIN, files: lsaSafFiles(slots.files) });
  const marine = await startMarineEmulator({ datasets: medDatasets({ sst: sea.sst, waves: sea.wavesFiles, physics: sea.physicsFiles }) });
  const ads = await startAdsEmulator({
    token: ADS_KEY,
    datasets: ['cams-europe-air-quality-forecasts', 'reanalysis-era5-land', 'cams-global-atmospheric-composition-forecasts'],
    plan: (s) => {
      if (s.dataset === 'reanalysis-era5-land') {
        const [y, m, d] = ['year', 'month', 'day'].map((k) => String((s.inputs[k] as string[])[0]));
        return { result: { files: [era5LandFile(dir, new Date(`${y}-${m!.padStart(2, '0')}-${d!.padStart(2, '0')}T00:00:00Z`))] } };
      }
      if (s.dataset === 'cams-global-atmospheric-composition-forecasts') {
        const day = String((s.inputs.date as string[])[0]).slice(0, 10);
        const file = ozoneDelivered.get(day) ?? camsGlobalOzoneFile(dir, day, s.inputs.leadtime_hour as string[]);
        ozoneDelivered.set(day, file);
        return { result: { files: [file], zip: s.inputs.data_format === 'netcdf_zip' } };
      }
      const day = String((s.inputs.date as string[])[0]).slice(0, 10).replace(/-/g, '');
      const files = camsDelivered.get(day) ?? camsFiles(dir, day);
      camsDelivered.set(day, files);
      return { ...camsPlan(s), result: { files, zip: true } };
    },
  });

  return {
    hub, dwd, ads, marine, lsa, icon, camsDelivered, ozoneDelivered,
    lsaHours: slots.hours,
    marineDays: sea.days,
    marineFiles: { waves: sea.waves, physics: sea.physics },
    credentials: { METEOPUNTO_ADS_KEY: ADS_KEY, METEOPUNTO_CDS_KEY: ADS_KEY, LSASAF_USER: LSA_LOGIN.user, LSASAF_PASSWORD: LSA_LOGIN.password },
    writeConfig(path, tickSeconds) {
      const file = JSON.parse(readFileSync(ITALY_JOBS, 'utf8'));
      const p = file.products;
      const fast = { retryInPlace: { firstDelaySeconds: 0.05, maxDelaySeconds: 0.5 } };
      p.nwp.source = { ...p.nwp.source, root: hub.origin, ...fast };
      p.nwp.fallback.source = { ...p.nwp.fallback.source, root: dwd.origin, steps: icon.euSteps, ...fast };
      p['nwp-soil'].source = { ...p['nwp-soil'].source, root: hub.origin, ...fast };
      p.cams.source = { ...p.cams.source, api: ads.api, pollSeconds: 0.3, ...fast };
      p.soil.source = { ...p.soil.source, api: ads.api, pollSeconds: 0.3, ...fast };
      p.ozone.source = { ...p.ozone.source, api: ads.api, pollSeconds: 0.3, ...fast };
      p.marine.source = { ...p.marine.source, stac: marine.stac, ...fast };
      p['uv-nrt'].source = { ...p['uv-nrt'].source, root: lsa.origin, ...fast };
      for (const cfg of Object.values<{ schedule?: object }>(p)) if (cfg.schedule) cfg.schedule = { everySeconds: tickSeconds };
      file.retry = { attempts: 3, backoffSeconds: 0.5 };
      // A dead worker's job is taken over within seconds, not the production minute; the lock still outlasts
      // the longest event-loop pause of an ingest on a loaded machine (4 s lost the uv-nrt job's lock).
      file.worker = { lockSeconds: 20, stalledCheckSeconds: 1, maxStalledCount: 2, shutdownGraceSeconds: 2 };
      writeFileSync(path, JSON.stringify(file, null, 2));
      return path;
    },
    close: async () => {
      await Promise.all([hub.close(), dwd.close(), ads.close(), marine.close(), lsa.close()]);
    },
  };
}
