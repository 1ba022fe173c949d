/**
 * Child process for the killed-writer test: publishes a version into the
 * bucket METEOPUNTO_TILES names, printing `put <key>` after each object it
 * uploads and pausing 50 ms between them, so the parent can SIGKILL it
 * mid-upload. Prints 'done' if it ever finishes.
 */
import { tileStorage } from '../../../../tiles/storage/open.js';
import { dataDir } from '../../../../config/paths.js';
import { writeProductVersion } from '../../../../tiles/write/writer.js';
import { constantInput } from '../../fields.js';

const storage = tileStorage(dataDir());
const put = storage.put.bind(storage);
storage.put = async (key, data) => {
  await put(key, data);
  console.log(`put ${key}`);
  await new Promise((r) => setTimeout(r, 50));
};
await writeProductVersion(storage, constantInput('nwp', 8, undefined, 3, 6));
console.log('done');
