// What the record-* scripts share: runs handed out to forked copies of the
// script, and the summary of one measure over the seeds.
import { fork } from 'node:child_process';

/**
 * Hands the jobs in `queue` (messages) to `jobs` forked copies of `script`
 * (started with `args`; each answers a message with one result and exits when
 * disconnected), whichever is free. onResult(m) sees each result as it
 * arrives; resolves with all of them once every child has exited with 0.
 */
export async function runPool({ script, args, queue, jobs, onResult }) {
  const done = [];
  await Promise.all(
    Array.from({ length: jobs }, () => {
      const child = fork(script, args);
      return new Promise((resolve, reject) => {
        const next = () => {
          const job = queue.shift();
          if (job) child.send(job);
          else child.disconnect();
        };
        child.on('message', (m) => {
          done.push(m);
          onResult(m);
          next();
        });
        child.on('error', reject);
        child.on('exit', (code) =>
          code === 0 ? resolve() : reject(new Error(`a training process exited with ${code}`)),
        );
        next();
      });
    }),
  );
  return done;
}

/** --seeds as a list: distinct non-negative integers, or an error. */
export function parseSeeds(text) {
  const seeds = text.split(',').map(Number);
  if (!seeds.length || seeds.some((s) => !Number.isInteger(s) || s < 0) || new Set(seeds).size !== seeds.length) {
    throw new Error('--seeds must be distinct non-negative integers, e.g. 1,2,3');
  }
  return seeds;
}

/**
 * Mean, min and max of one measure over the seeds' values. Where some seed
 * has null (a learned table past its rows, or 99% never reached), mean and
 * max are null and min is the lowest value that is not.
 */
export function seedSummary(values) {
  if (values.some((v) => v === null)) {
    const reached = values.filter((v) => v !== null);
    return { mean: null, min: reached.length ? Math.min(...reached) : null, max: null };
  }
  return {
    mean: values.reduce((a, b) => a + b, 0) / values.length,
    min: Math.min(...values),
    max: Math.max(...values),
  };
}
