/**
 * Child process for the killed-writer tests: publishes a version into the
 * bucket METEOPUNTO_TILES names, printing `put <key>` after each object it
 * uploads and pausing 50 ms between them, so the parent can SIGKILL it
 * mid-upload. With WRITER_HOLD_SWITCH=1 it prints `switch <key>` when every
 * object is uploaded and the manifest's conditional write (the switch) is
 * next, and waits there for the kill. Prints 'done' if it ever finishes.
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
if (process.env.WRITER_HOLD_SWITCH === '1') {
  const putIf = storage.putIf.bind(storage);
  storage.putIf = async (key, data, expected) => {
    console.log(`switch ${key}`);
    await new Promise((r) => setTimeout(r, 120_000));
    return putIf(key, data, expected);
  };
}
await writeProductVersion(storage, constantInput('nwp', 8, undefined, 3, 6));
console.log('done');
