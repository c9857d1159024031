// <train-lab>'s module worker: loads the trainer build of the core and runs
// its share of the encodings (web/lib/training/train-session.js) off the page's thread.
//
// In:  { type: 'start', config } | { type: 'pause' } | { type: 'resume' } | { type: 'reset' }
// Out: { type: 'ready', simd } once the core is loaded (the page falls back to
//      training itself if an error comes first), then { type: 'progress', ... }
//      about every 150 ms, { type: 'done', results, ... }, { type: 'error', message }.
// Messages are checked here like any input: a bad one is answered with an
// error and changes nothing.
import { loadPosenc } from '../posenc.js';
import { SessionLoop, checkConfig } from '../lib/training/train-session.js';

const post = (message) => self.postMessage(message);
// 50 ms of work between yields: a pause waits at most that long (plus one step)
const loop = new SessionLoop(post, { sliceMs: 50, progressMs: 150 });
const corePromise = loadPosenc({ trainer: true });

corePromise.then(
  (pe) => post({ type: 'ready', simd: pe.simd }),
  (error) => post({ type: 'error', message: `the trainer could not be loaded: ${error.message}` }),
);

self.addEventListener('message', async (event) => {
  const msg = event.data;
  const type = typeof msg === 'object' && msg !== null ? msg.type : undefined;
  switch (type) {
    case 'start': {
      let config;
      try {
        config = checkConfig(msg.config);
      } catch (error) {
        post({ type: 'error', message: `bad start message: ${error.message}` });
        return;
      }
      loop.reset();
      const pe = await corePromise.catch(() => null);
      if (pe) loop.start(pe, config);
      return;
    }
    case 'pause':
      loop.pause();
      return;
    case 'resume':
      loop.resume();
      return;
    case 'reset':
      loop.reset();
      return;
    default:
      post({ type: 'error', message: `unknown message type ${JSON.stringify(String(type)).slice(0, 40)}` });
  }
});
